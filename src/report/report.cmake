# iolens report's page (src/report/, docs/report.md): its template, style and
# script, and Debian's Chart.js (libjs-chart.js, scripts/install-deps),
# embedded into the iolens command as C arrays when it is built, so that a
# report needs no network and no file beside the command.
find_file(IOLENS_CHARTJS chart.min.js PATHS /usr/share/javascript/chart.js NO_DEFAULT_PATH)
if(NOT IOLENS_CHARTJS)
  message(FATAL_ERROR "Chart.js not found in /usr/share/javascript/chart.js (libjs-chart.js, "
    "see scripts/install-deps; or set IOLENS_CHARTJS to its chart.min.js): iolens report "
    "embeds it")
endif()
set(IOLENS_REPORT_ASSETS
  report_asset_html=${CMAKE_SOURCE_DIR}/src/report/report.html
  report_asset_css=${CMAKE_SOURCE_DIR}/src/report/report.css
  report_asset_js=${CMAKE_SOURCE_DIR}/src/report/report.js
  report_asset_chartjs=${IOLENS_CHARTJS})
set(IOLENS_REPORT_SOURCES)
foreach(asset ${IOLENS_REPORT_ASSETS})
  string(REPLACE "=" ";" pair ${asset})
  list(GET pair 0 name)
  list(GET pair 1 path)
  set(out ${CMAKE_BINARY_DIR}/report/${name}.c)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${path} -DOUT=${out} -DNAME=${name}
            -P ${CMAKE_SOURCE_DIR}/src/report/embed.cmake
    DEPENDS ${path} ${CMAKE_SOURCE_DIR}/src/report/embed.cmake VERBATIM)
  list(APPEND IOLENS_REPORT_SOURCES ${out})
endforeach()
file(GLOB IOLENS_REPORT_C_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/report/*.c)
list(APPEND IOLENS_REPORT_SOURCES ${IOLENS_REPORT_C_SOURCES})
