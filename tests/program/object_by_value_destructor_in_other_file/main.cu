#include "buffer.h"

int main() {
  DeviceBuffer weights(1024);
  double seen = peek(weights); // by reference: no copy
  double sum = checksum(weights); // expected-warning {{'weights.data_' is freed twice: 'weights' is passed by value to 'checksum', and the copy, made member by member (DeviceBuffer's copy or move constructor is implicit or defaulted), frees it in ~DeviceBuffer when the call ends; pass weights by reference or by pointer, or give DeviceBuffer a copy constructor that copies the buffer (or delete it) [GM003 double-free]}} expected-note@buffer.cu:7 {{the copy's destructor frees it here}}
  return sum + seen > 0 ? 0 : 1; // expected-note {{'weights' is destroyed here, and ~DeviceBuffer frees it again}}
}
