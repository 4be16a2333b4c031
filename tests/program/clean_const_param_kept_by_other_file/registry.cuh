// A registry (registry.cu) that keeps the buffers it is given through `const float *` and frees
// them all at the end: the rare const parameter that is stored. Its definition in another file
// of the program decides, not the const of its declaration: main.cu does not leak.
#pragma once

void registry_add(const float *p);
void registry_release_all();
