// expected-no-diagnostics
#include "buffer.h"

int main() {
  DeviceBuffer weights(1024);
  double seen = peek(weights);
  double sum = checksum(weights);
  return sum + seen > 0 ? 0 : 1;
}
