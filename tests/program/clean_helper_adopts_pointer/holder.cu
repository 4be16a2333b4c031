// expected-no-diagnostics
#include "holder.h"

void adopt(Holder *h, float *q) { h->p = q; }
