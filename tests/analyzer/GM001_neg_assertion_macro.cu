// expected-no-diagnostics
// Assertion macros of a unit-test library (written here in the shape such libraries expand to)
// return only when the checked call failed: `ASSERT_EQ(cudaMalloc(&p, n), cudaSuccess)` and
// `ASSERT_TRUE(err == cudaSuccess)` leave nothing allocated on their returns.
#include <cuda_runtime.h>

struct CheckResult {
  bool ok;
  explicit operator bool() const { return ok; }
};

template <class A, class B>
CheckResult compare_equal(const char *, const char *, const A &a, const B &b) {
  return CheckResult{a == b};
}

inline CheckResult make_result(bool ok) { return CheckResult{ok}; }

#define TEST_ASSERT_EQ(a, b)                                     \
  if (const CheckResult result_ = compare_equal(#a, #b, a, b)) \
    ;                                                            \
  else                                                           \
    return

#define TEST_ASSERT_TRUE(c)                               \
  if (const CheckResult result_ = make_result(c)) \
    ;                                                     \
  else                                                    \
    return

void equal_to_success(size_t n) {
  float *p = nullptr;
  TEST_ASSERT_EQ(cudaMalloc(&p, n), cudaSuccess);
  cudaMemset(p, 0, n);
  cudaFree(p);
}

void status_compared(size_t n) {
  float *p = nullptr;
  cudaError_t err = cudaMallocManaged(&p, n);
  TEST_ASSERT_TRUE(err == cudaSuccess);
  cudaFree(p);
}

void two_allocations(size_t n) {
  float *a = nullptr, *b = nullptr;
  TEST_ASSERT_TRUE(cudaMalloc(&a, n) == cudaSuccess);
  if (cudaMalloc(&b, n) != cudaSuccess) {
    cudaFree(a);
    return;
  }
  cudaFree(b);
  cudaFree(a);
}

int status_kept_in_a_flag(size_t n) {
  float *p = nullptr;
  bool allocated = cudaMalloc(&p, n) == cudaSuccess;
  if (!allocated)
    return -1;
  cudaFree(p);
  return 0;
}
