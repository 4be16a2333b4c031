// expected-no-diagnostics
#include "workspace.h"

int main() {
  Workspace ws(1 << 20);
  return 0;
}
