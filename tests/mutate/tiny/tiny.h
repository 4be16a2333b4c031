/* The functions of tiny.c, the code tests/cli/mutate.sh mutates. */
#include <stdbool.h>

int tiny_clamp(int v, int lo, int hi);
bool tiny_nonempty(const char *s);
int tiny_halvings(int n);
int tiny_weight(int i);
int tiny_both(int a, int b);
