// The safe realloc idiom (temporary, null check, then assign) still regrows
// the array by one line on every iteration.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int read_line(char* buf, int cap); // returns length, -1 at end of input

char** read_lines(int* count) {
  char** lines = nullptr;
  int n = 0;
  char buf[512];
  int len;
  while ((len = read_line(buf, sizeof buf)) >= 0) {
    char** t = (char**)realloc(lines, (n + 1) * sizeof(char*)); // expected-warning {{GM020}}
    if (!t)
      break;
    lines = t;
    lines[n] = (char*)malloc(len + 1);
    memcpy(lines[n], buf, len + 1);
    ++n;
  }
  *count = n;
  return lines;
}
