// A per-batch step whose scratch buffer is allocated and freed on every call (batch.cu), called
// once per step by the training loop in another file (train.cu).
#pragma once
void process_batch(const float *host_batch, int n);
