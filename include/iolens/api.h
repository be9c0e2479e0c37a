/* Marks the functions and data the iolens libraries export; all else is hidden. */
#ifndef IOLENS_API_H
#define IOLENS_API_H

#define IOLENS_API __attribute__((visibility("default")))

#endif
