// Host tables filled through helpers that store a heap block through their out-parameter; the
// release function frees the keys and forgets the values.
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
  host_alloc((void**)&t->vals, n * sizeof(int)); // expected-warning {{'Table::vals' (host heap memory from host_alloc) is never freed: no function in the program releases it, while 'Table::keys' of the same Table is freed in 'table_release'; free it there with free [GM004 unpaired-host-allocation]}}
  host_array(&t->weights, n);
}

void table_release(Table* t) {
  free(t->keys); // expected-note {{'Table::keys' is freed here, in 'table_release'}}
  delete[] t->weights;
}
