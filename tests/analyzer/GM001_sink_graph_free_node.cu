// cudaGraphAddMemFreeNode (argument 4) frees the pointer when the graph runs: the graph owns it.
#include <cuda.h>
#include <cuda_runtime.h>

int add_free_node(cudaGraph_t graph, cudaGraphNode_t *node, size_t n) {
  void *d = nullptr;
  if (cudaMalloc(&d, n) != cudaSuccess)
    return -1;
  return cudaGraphAddMemFreeNode(node, graph, nullptr, 0, d) == cudaSuccess ? 0 : -1;
}

int add_free_node_driver(CUgraph graph, CUgraphNode *node, size_t n) {
  CUdeviceptr d = 0;
  if (cuMemAlloc(&d, n) != CUDA_SUCCESS)
    return -1;
  return cuGraphAddMemFreeNode(node, graph, nullptr, 0, d) == CUDA_SUCCESS ? 0 : -1;
}
// expected-no-diagnostics
