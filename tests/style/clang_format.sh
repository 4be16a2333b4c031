# The C sources follow the repo's .clang-format (house style).
set -u
ROOT=$(realpath "$1")
cd "$ROOT"
command -v clang-format >/dev/null || { echo "clang-format is not installed (bootstrap.sh installs it)" >&2; exit 1; }
if ! clang-format --dry-run --Werror analyzer/*/*.c analyzer/*/*.h rules/*.c rules/*.h runtime/*.c runtime/*.h tests/runtime/*.c; then
  echo "run: clang-format -i analyzer/*/*.[ch] rules/*.[ch] runtime/*.[ch] tests/runtime/*.c" >&2
  exit 1
fi
echo "formatting ok"
