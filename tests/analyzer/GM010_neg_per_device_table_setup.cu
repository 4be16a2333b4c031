// expected-no-diagnostics
// Multi-GPU setup: one long-lived buffer per device or per table element,
// allocated in a loop that fills the table and freed in a later loop at
// teardown. Each iteration allocates a different element, so this is setup,
// not churn, whichever way the element is spelled.
#include <cuda_runtime.h>
#include <vector>

struct DevicePlan {
  float* buf;
  float* scratch;
  int device;
};

struct Context {
  float* bufs[8];
  int nbufs;
};

void setup_plans(DevicePlan* plan, int ngpu, size_t bytes) {
  for (int i = 0; i < ngpu; ++i) {
    cudaSetDevice(i);
    plan[i].device = i;
    cudaMalloc(&plan[i].buf, bytes);
    cudaMalloc((void**)&plan[i].scratch, bytes / 4);
  }
}

void teardown_plans(DevicePlan* plan, int ngpu) {
  for (int i = 0; i < ngpu; ++i) {
    cudaSetDevice(i);
    cudaFree(plan[i].buf);
    cudaFree(plan[i].scratch);
  }
}

void setup_context(Context* ctx, size_t bytes) {
  for (int i = 0; i < ctx->nbufs; ++i)
    cudaMalloc(&ctx->bufs[i], bytes);
}

void pointer_table(float** bufs, int k, size_t bytes) {
  for (int i = 0; i < k; ++i)
    cudaMalloc((void**)(bufs + i), bytes);
  for (int i = 0; i < k; ++i)
    cudaMalloc((void**)&bufs[i], bytes);
  for (int i = 0; i < k; ++i)
    cudaFree(bufs[i]);
}

void through_element_pointer(DevicePlan* plan, int ngpu, size_t bytes) {
  for (int i = 0; i < ngpu; ++i) {
    DevicePlan* p = &plan[i];
    cudaSetDevice(i);
    cudaMalloc(&p->buf, bytes);
  }
  for (DevicePlan* it = plan; it != plan + ngpu; ++it)
    cudaMalloc(&it->scratch, bytes);
}

void through_references(std::vector<DevicePlan>& plans, size_t bytes) {
  for (auto& p : plans) {
    cudaSetDevice(p.device);
    cudaMalloc(&p.buf, bytes);
  }
  for (int i = 0; i < (int)plans.size(); ++i) {
    DevicePlan& q = plans[i];
    cudaMalloc(&q.scratch, bytes);
  }
}

void vector_of_pointers(std::vector<float*>& bufs, size_t bytes) {
  for (size_t i = 0; i < bufs.size(); ++i)
    cudaMalloc(&bufs[i], bytes);
}

// Filled once, on the first step, and released after the last one: the step
// loop around the table loop frees the table, but the filling is guarded.
void lazily_filled(float** bufs, int k, int steps, size_t bytes) {
  bool ready = false;
  for (int s = 0; s < steps; ++s) {
    if (!ready) {
      for (int i = 0; i < k; ++i)
        cudaMalloc(&bufs[i], bytes);
      ready = true;
    }
    if (s == steps - 1)
      for (int i = 0; i < k; ++i)
        cudaFree(bufs[i]);
  }
}
