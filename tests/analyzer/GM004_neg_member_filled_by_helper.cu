// expected-no-diagnostics
// GM004_member_filled_by_helper.cu's tables, each released with its own family's call.
#include <stdlib.h>

static void host_alloc(void** p, size_t n) {
  *p = malloc(n);
}

template <typename T> void host_array(T** p, size_t n) {
  *p = new T[n];
}

struct Table {
  int* keys;
  int* vals;
  float* weights;
};

void table_init(Table* t, size_t n) {
  host_alloc((void**)&t->keys, n * sizeof(int));
  host_alloc((void**)&t->vals, n * sizeof(int));
  host_array(&t->weights, n);
}

void table_release(Table* t) {
  free(t->keys);
  free(t->vals);
  delete[] t->weights;
}
