# Writes OUT (a header defining ATTN_GIT_COMMIT) from the commit the source
# tree SRC is at, with "-dirty" when it has uncommitted changes; rewrites
# the file only when that changes, so that Artifact.cpp is recompiled then
# and only then. Run at every build (attn-git-commit in CMakeLists.txt).
execute_process(COMMAND git rev-parse --short HEAD
  WORKING_DIRECTORY ${SRC} OUTPUT_VARIABLE commit
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT commit)
  set(commit unknown)
else()
  execute_process(COMMAND git diff --quiet HEAD --
    WORKING_DIRECTORY ${SRC} RESULT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty EQUAL 0)
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#define ATTN_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
