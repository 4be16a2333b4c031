# --help, --version, --list-rules, and misuse: each with its documented exit status.
source "$(dirname "$0")/testlib.bash"

run --help
expect_rc 0 "--help"
expect_out "^usage: gmemlint" "--help"
expect_out "--format=FMT" "--help lists --format"
expect_out "2  usage error" "--help documents exit status 2"
[ ! -s "$WORK/err" ] || fail "--help wrote to stderr"

run --version
expect_rc 0 "--version"
expect_out "^gmemlint [0-9]+\.[0-9]+\.[0-9]+ \(.*clang version 22" "--version names libclang"

run --list-rules
expect_rc 0 "--list-rules"
for id in GM001 GM002 GM003 GM004; do expect_out "^$id " "--list-rules lists $id"; done

run --bogus x.cu
expect_rc 2 "unknown option"
expect_err "^gmemlint: error: unknown option '--bogus'" "unknown option message"

run
expect_rc 2 "no input files"
expect_err "gmemlint: error: no input files" "no input files message"

run --format=xml x.cu
expect_rc 2 "bad --format"
expect_err "unknown format 'xml'" "bad format message"

run -j 0 x.cu
expect_rc 2 "bad -j"
expect_err "bad job count '0'" "bad -j message"

run --only=GM999 x.cu
expect_rc 2 "unknown rule"
expect_err "unknown rule 'GM999'" "unknown rule message"

run --werror
expect_rc 2 "option value missing is fine, but no files"

run --format
expect_rc 2 "option without its value"
expect_err "option '--format' needs a value" "missing value message"

run --cuda-path="$WORK/nowhere" x.cu
expect_rc 2 "missing CUDA toolkit"
expect_err "no CUDA toolkit at" "missing toolkit message"

run --man
expect_rc 0 "--man"
expect_out "^\.TH GMEMLINT 1" "man page header"
finish
