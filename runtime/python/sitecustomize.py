# gmemlint's PyTorch shim, first on PYTHONPATH under gmemrun (docs/gmemrun.md, "PyTorch").
# Python imports one module named sitecustomize: this one, so it first runs the one it shadows
# (Debian's /usr/lib/python3.X/sitecustomize.py, a virtual environment's), then arms
# gmemlint_torch, which waits for the program to import torch. Nothing here may change what the
# program does: errors of our own are swallowed; the shadowed module's are raised as before.
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))


def _is_here(entry):
    try:
        return os.path.abspath(entry or os.curdir) == _here
    except Exception:
        return False


def _run_shadowed():
    try:  # the import system's own modules, loaded already: the program's sys.modules unchanged
        from _frozen_importlib import module_from_spec
        from _frozen_importlib_external import PathFinder
    except ImportError:
        from importlib.machinery import PathFinder
        from importlib.util import module_from_spec

    others = [p for p in sys.path if not _is_here(p)]
    spec = PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = module_from_spec(spec)
    spec.loader.exec_module(module)


_shadowed_error = None
try:
    _run_shadowed()
except BaseException as error:  # site.py reports it, as it would without us
    _shadowed_error = error

try:
    if os.environ.get("GMEMRT_OUTPUT"):
        import gmemlint_torch

        gmemlint_torch.install()
except BaseException:
    pass

# The program sees the sys.path it would see without gmemrun: both modules are in sys.modules
# already, so `import gmemlint_torch` still works; child processes get PYTHONPATH again.
try:
    sys.path[:] = [p for p in sys.path if not _is_here(p)]
except Exception:
    pass

if _shadowed_error is not None:
    raise _shadowed_error
