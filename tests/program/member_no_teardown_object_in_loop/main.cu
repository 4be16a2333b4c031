// expected-no-diagnostics
#include "scratch.h"

int main(int argc, char **) {
  for (int frame = 0; frame < argc * 100; ++frame) {
    Scratch s(1 << 20);
    s.clear();
  }
  return 0;
}
