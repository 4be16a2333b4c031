#!/usr/bin/env python3
"""Turn the output of a Make dry run into compile_commands.json.

Usage: make -n -B -w [targets] 2>&1 | bench/realcode/make_db.py DIR > compile_commands.json

DIR is the directory make started in. `make -w` prints "Entering directory" and
"Leaving directory" lines for every recursive make; they give each command its directory. A
command line (continued with backslashes, chained with && or ;, after `cd DIR`) whose program
is a C, C++ or CUDA compiler and that names source files becomes one entry per source file.
nvcc compiles sources in a link step too (`nvcc a.cu b.cu -o app`), so -c is not required. A
dry run executes nothing, so this works without building anything; its limit is that commands
a Makefile computes from files the build would generate first are missing.
"""

import json
import os
import re
import shlex
import sys

COMPILERS = re.compile(
    r"(^|/)(nvcc|gcc|g\+\+|cc|c\+\+|clang|clang\+\+|mpicc|mpicxx|mpic\+\+|mpiCC)(-[0-9.]+)?$"
)
SOURCES = re.compile(r"\.(cu|c|cc|cpp|cxx|C)$")
ENTERING = re.compile(r"make(\[\d+\])?: Entering directory [`'\"](.*)['\"]$")
LEAVING = re.compile(r"make(\[\d+\])?: Leaving directory [`'\"](.*)['\"]$")
# Options whose next argument is a value, never a source file.
TAKES_VALUE = {
    "-o", "-I", "-D", "-U", "-include", "-isystem", "-x", "-MF", "-MT", "-MQ", "-ccbin",
    "-Xcompiler", "--compiler-options", "-Xlinker", "--linker-options", "-Xptxas", "-arch",
    "-gencode", "-code", "--options-file", "-optf", "-L", "-l", "--output-file", "-odir",
}


def logical_lines(stream):
    """Join backslash-continued lines."""
    pending = ""
    for raw in stream:
        line = raw.rstrip("\n")
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending


def commands(line):
    """Split a shell line on ;, && and || (outside quotes) into words per command."""
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return
    current = []
    for word in words:
        if word in (";", "&&", "||", "&", "|"):
            if current:
                yield current
            current = []
        else:
            current.append(word)
    if current:
        yield current


def sources_of(argv):
    found = []
    skip = False
    for arg in argv[1:]:
        if skip:
            skip = False
            continue
        if arg in TAKES_VALUE:
            skip = True
            continue
        if not arg.startswith("-") and SOURCES.search(arg):
            found.append(arg)
    return found


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("make_db.py: usage: make -n -B -w | make_db.py DIR\n")
        return 2
    stack = [os.path.abspath(sys.argv[1])]
    entries = []
    seen = set()
    for line in logical_lines(sys.stdin):
        stripped = line.strip()
        m = ENTERING.search(stripped)
        if m:
            stack.append(m.group(2))
            continue
        m = LEAVING.search(stripped)
        if m:
            if len(stack) > 1:
                stack.pop()
            continue
        cwd = stack[-1]
        for argv in commands(stripped):
            # `@`-silenced commands are printed with their @ by make -n in some versions
            if argv and argv[0].startswith("@"):
                argv[0] = argv[0][1:]
            while argv and "=" in argv[0] and not argv[0].startswith("-"):
                argv = argv[1:]  # VAR=value prefix
            if not argv:
                continue
            if argv[0] == "cd" and len(argv) > 1:
                cwd = os.path.normpath(os.path.join(cwd, argv[1]))
                continue
            if not COMPILERS.search(argv[0]):
                continue
            for src in sources_of(argv):
                path = os.path.normpath(os.path.join(cwd, src))
                if path in seen:  # one entry a file, as gmemlint lints each entry
                    continue
                seen.add(path)
                entries.append({"directory": cwd, "arguments": argv, "file": path})
    json.dump(entries, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
