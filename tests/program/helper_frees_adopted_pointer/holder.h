// A holder whose helper (holder.cu) stores the pointer it is given into the holder and frees it
// through the member: main.cu's own free of that pointer afterwards is a double free.
#pragma once

struct Holder {
  float *p;
};

void adopt_and_release(Holder *h, float *q);
