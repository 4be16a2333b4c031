// expected-no-diagnostics
#include "net.h"

void setup(Net &net) {
  for (int k = 0; k < net.n; ++k) {
    Layer l = net.layers[k];
    if (net.max_scratch < l.outputs) {
      net.max_scratch = l.outputs;
      if (net.scratch)
        free_array(net.scratch);
      net.scratch = make_array(net.max_scratch);
    }
    if (!l.delta)
      l.delta = make_array(l.outputs);
    net.layers[k] = l;
  }
  for (int j = 0; j < net.n; ++j) {
    Layer *l = &net.layers[j];
    align_layer(l);
  }
}

void teardown(Net &net) {
  for (int k = 0; k < net.n; ++k) {
    free_array(net.layers[k].delta);
    free_array(net.layers[k].workspace);
  }
  free_array(net.scratch);
}

void run_steps(Net &net, int steps) {
  float *lookup = NULL;
  for (int s = 0; s < steps; ++s) {
    if (!lookup)
      lookup = make_array(net.n);
    net.scratch[s % net.n] = lookup[0];
  }
  free_array(lookup);
}
