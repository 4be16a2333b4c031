/* The .cu files CMake's FindCUDA module (cuda_add_executable, cuda_add_library) compiles
 * outside compile_commands.json, read from the nvcc scripts it generates in the build tree. */
#ifndef GM_COMPDB_FINDCUDA_H
#define GM_COMPDB_FINDCUDA_H

#include "support/util.h"

#include <jansson.h>

/* The compile-database entries ({"directory", "arguments", "file"}) of every FindCUDA script
 * under build_dir/CMakeFiles (a new JSON array, empty when there is none, in path order); the
 * scripts' paths are appended to *scripts (malloc'd). */
json_t *gm_findcuda_entries(const char *build_dir, gm_str_vec *scripts);

#endif
