// A launcher (saxpy.cu) whose kernel reads its arguments by thread index, given managed memory
// by a program in another file (main.cu): the pages fault over on demand unless prefetched.
#pragma once

void run_saxpy(const float *x, float *y, float a, int n);
