# iolens predict's analysis (src/predict/, docs/predict.md): libclang's C API,
# from Debian's libclang-dev (scripts/install-deps). Found through llvm-config
# when there is one, else in the newest /usr/lib/llvm-*/; or set
# IOLENS_LIBCLANG_INCLUDE_DIR and IOLENS_LIBCLANG_LIBRARY.
find_program(IOLENS_LLVM_CONFIG NAMES llvm-config llvm-config-18 llvm-config-17 llvm-config-16
  llvm-config-15 llvm-config-14)
set(IOLENS_LLVM_HINTS)
if(IOLENS_LLVM_CONFIG)
  execute_process(COMMAND ${IOLENS_LLVM_CONFIG} --prefix OUTPUT_VARIABLE IOLENS_LLVM_PREFIX
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  list(APPEND IOLENS_LLVM_HINTS ${IOLENS_LLVM_PREFIX})
endif()
file(GLOB IOLENS_LLVM_DIRS LIST_DIRECTORIES true /usr/lib/llvm-*)
list(SORT IOLENS_LLVM_DIRS COMPARE NATURAL ORDER DESCENDING)
list(APPEND IOLENS_LLVM_HINTS ${IOLENS_LLVM_DIRS})
find_path(IOLENS_LIBCLANG_INCLUDE_DIR clang-c/Index.h HINTS ${IOLENS_LLVM_HINTS}
  PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(IOLENS_LIBCLANG_LIBRARY NAMES clang libclang HINTS ${IOLENS_LLVM_HINTS}
  PATH_SUFFIXES lib NO_DEFAULT_PATH)
if(NOT IOLENS_LIBCLANG_INCLUDE_DIR OR NOT IOLENS_LIBCLANG_LIBRARY)
  message(FATAL_ERROR "libclang not found (libclang-dev, see scripts/install-deps; or set "
    "IOLENS_LIBCLANG_INCLUDE_DIR and IOLENS_LIBCLANG_LIBRARY): iolens predict parses C with it")
endif()
message(STATUS "libclang for iolens predict: ${IOLENS_LIBCLANG_LIBRARY}")
file(GLOB IOLENS_PREDICT_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/predict/*.c)
add_library(iolens-predict STATIC ${IOLENS_PREDICT_SOURCES})
target_include_directories(iolens-predict PRIVATE ${IOLENS_LIBCLANG_INCLUDE_DIR})
target_link_libraries(iolens-predict PUBLIC ${IOLENS_LIBCLANG_LIBRARY} m)
# The default model, the one calibrated on the benchmark set
# (bench/predict/calibrated.model, docs/predict.md), compiled in as a string.
set(IOLENS_PREDICT_MODEL_FILE ${CMAKE_SOURCE_DIR}/bench/predict/calibrated.model)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${IOLENS_PREDICT_MODEL_FILE})
file(READ ${IOLENS_PREDICT_MODEL_FILE} IOLENS_PREDICT_MODEL_TEXT)
string(REPLACE "\\" "\\\\" IOLENS_PREDICT_MODEL_TEXT "${IOLENS_PREDICT_MODEL_TEXT}")
string(REPLACE "\"" "\\\"" IOLENS_PREDICT_MODEL_TEXT "${IOLENS_PREDICT_MODEL_TEXT}")
string(REPLACE "\n" "\\n\"\n    \"" IOLENS_PREDICT_MODEL_TEXT "${IOLENS_PREDICT_MODEL_TEXT}")
file(WRITE ${CMAKE_BINARY_DIR}/generated/predict_default_model.h.new
  "/* generated from bench/predict/calibrated.model by src/predict/predict.cmake */\n"
  "static const char pr_default_model_text[] =\n    \"${IOLENS_PREDICT_MODEL_TEXT}\";\n")
configure_file(${CMAKE_BINARY_DIR}/generated/predict_default_model.h.new
  ${CMAKE_BINARY_DIR}/generated/predict_default_model.h COPYONLY)
target_include_directories(iolens-predict PRIVATE ${CMAKE_BINARY_DIR}/generated)
