// Host side of a streaming reader: the record array is realloc'ed one batch
// larger on every iteration before it is uploaded.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Record {
  int key;
  float value;
};

int next_batch(Record* dst, int max); // returns how many records were read

Record* read_all(int batch, int* count) {
  Record* recs = nullptr;
  int n = 0;
  Record tmp[256];
  for (;;) {
    int got = next_batch(tmp, batch < 256 ? batch : 256);
    if (got <= 0)
      break;
    recs = (Record*)realloc(recs, (n + got) * sizeof(Record)); // expected-warning {{GM020}}
    memcpy(recs + n, tmp, got * sizeof(Record));
    n += got;
  }
  *count = n;
  return recs;
}
