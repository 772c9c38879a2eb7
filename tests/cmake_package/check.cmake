# Installs cule from BUILD_DIR into WORK_DIR/prefix, builds this folder's
# consumer against the installed package, and requires its output to equal
# that of the same program built in cule's tree (IN_TREE_CONSUMER) on ROM.
#
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DIN_TREE_CONSUMER=... -DROM=...
#         -DGENERATOR=... -DMAKE_PROGRAM=... -DCXX_COMPILER=... [-DCUDA_ROOT=...]
#         -P check.cmake
foreach(variable BUILD_DIR WORK_DIR IN_TREE_CONSUMER ROM GENERATOR MAKE_PROGRAM CXX_COMPILER)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check.cmake: ${variable} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
                  ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "check.cmake: `${command}` failed (${status}):\n${output}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# Nothing of the installed package may point back into the build or source
# trees, or it works only on the machine that built it.
get_filename_component(source_dir ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
file(GLOB_RECURSE package_files ${prefix}/*.cmake)
foreach(file IN LISTS package_files)
  file(READ ${file} text)
  foreach(tree ${source_dir} ${BUILD_DIR})
    string(FIND "${text}" "${tree}/" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "check.cmake: ${file} names ${tree}")
    endif()
  endforeach()
endforeach()

set(configure_args -S ${CMAKE_CURRENT_LIST_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(CUDA_ROOT)
  # A CUDA build's package finds the toolkit it was built with here, as a
  # user's project would with CUDAToolkit_ROOT (or nvcc on the PATH).
  list(APPEND configure_args -DCUDAToolkit_ROOT=${CUDA_ROOT})
endif()
run(${CMAKE_COMMAND} ${configure_args})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)

execute_process(COMMAND ${WORK_DIR}/build/package_consumer ${ROM} RESULT_VARIABLE installed_status
                OUTPUT_VARIABLE installed ERROR_VARIABLE installed)
execute_process(COMMAND ${IN_TREE_CONSUMER} ${ROM} RESULT_VARIABLE in_tree_status
                OUTPUT_VARIABLE in_tree ERROR_VARIABLE in_tree)
message(STATUS "installed package: ${installed}")
message(STATUS "in-tree library:   ${in_tree}")
if(NOT installed_status EQUAL 0 OR NOT in_tree_status EQUAL 0)
  message(FATAL_ERROR "check.cmake: a consumer failed (${installed_status}, ${in_tree_status})")
endif()
if(NOT installed MATCHES "digest [0-9a-f]+" OR NOT installed STREQUAL in_tree)
  message(FATAL_ERROR "check.cmake: the installed package's consumer printed something else")
endif()
