// Every type declared: freeing a struct's members and then the struct
// is one free of each, and a real second free of the struct is still reported. Its twin, where a
// missing -D leaves the members' type undeclared, lives in tests/cli/opaque_invalid_code.sh (a
// file with parse errors cannot pass --verify): there clang cannot type `p->seq`, and nothing is
// reported.
#include <stdlib.h>

typedef int idx_t;

struct seq_set {
  idx_t *seq;
  float *v;
};

void release(struct seq_set *p) {
  free(p->seq);
  free(p->v);
  free(p);
}

void release_twice(struct seq_set *p) {
  free(p->seq);
  free(p->v);
  free(p); // expected-note {{first freed here}}
  free(p); // expected-warning {{'p' is freed twice}}
}
