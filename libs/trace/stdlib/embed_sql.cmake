# Embeds every stdlib module (STDLIB_DIR/**/*.sql) into a C++ source (OUTPUT) at build time:
#   cmake -DSTDLIB_DIR=<dir> -DOUTPUT=<file.cc> -P embed_sql.cmake
# A module's name is its path under STDLIB_DIR with '/' as '.' and no extension
# (android/frames/timeline.sql -> android.frames.timeline). The output defines
# tw::stdlib_embedded::kModules (sorted by name) for stdlib.cc.

if(NOT STDLIB_DIR OR NOT OUTPUT)
  message(FATAL_ERROR "embed_sql.cmake: pass -DSTDLIB_DIR=... -DOUTPUT=...")
endif()

file(GLOB_RECURSE files RELATIVE "${STDLIB_DIR}" "${STDLIB_DIR}/*.sql")
list(SORT files)

set(delimiter "tw_stdlib_sql")
set(body "")
set(count 0)
foreach(rel IN LISTS files)
  string(REGEX REPLACE "\\.sql$" "" name "${rel}")
  string(REPLACE "/" "." name "${name}")
  if(NOT name MATCHES "^[a-z0-9_]+(\\.[a-z0-9_]+)*$")
    message(FATAL_ERROR "embed_sql.cmake: ${rel}: module paths are lower-case words and folders")
  endif()
  file(READ "${STDLIB_DIR}/${rel}" sql)
  string(FIND "${sql}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "embed_sql.cmake: ${rel} contains the raw-string delimiter")
  endif()
  string(APPEND body "    {\"${name}\", \"${rel}\", R\"${delimiter}(${sql})${delimiter}\"},\n")
  math(EXPR count "${count} + 1")
endforeach()

set(content "// Generated at build time by libs/trace/stdlib/embed_sql.cmake from the stdlib's .sql
// files. Do not edit: edit the .sql files.
#include <cstddef>

#include \"libs/trace/stdlib/stdlib.h\"

namespace tw::stdlib_embedded {

extern const SqlModule kModules[];
extern const size_t kModuleCount;

const SqlModule kModules[] = {
${body}};
const size_t kModuleCount = ${count};

}  // namespace tw::stdlib_embedded
")

# Rewrite only on change, so an unchanged stdlib does not recompile anything.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL content)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${content}")
