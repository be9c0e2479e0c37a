# iolens serve's page (src/serve/, docs/serve.md): its HTML, style and script,
# embedded into the iolens command as C arrays with the report's embed.cmake
# (Chart.js is the report's embedded copy, src/report/report.cmake).
pkg_check_modules(IOLENS_MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
set(IOLENS_SERVE_SOURCES)
foreach(name html css js)
  set(out ${CMAKE_BINARY_DIR}/serve/serve_asset_${name}.c)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${CMAKE_SOURCE_DIR}/src/serve/serve.${name} -DOUT=${out}
            -DNAME=serve_asset_${name} -P ${CMAKE_SOURCE_DIR}/src/report/embed.cmake
    DEPENDS ${CMAKE_SOURCE_DIR}/src/serve/serve.${name} ${CMAKE_SOURCE_DIR}/src/report/embed.cmake
    VERBATIM)
  list(APPEND IOLENS_SERVE_SOURCES ${out})
endforeach()
file(GLOB IOLENS_SERVE_C_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/serve/*.c)
list(APPEND IOLENS_SERVE_SOURCES ${IOLENS_SERVE_C_SOURCES})
