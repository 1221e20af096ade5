/* Found next to include.c / include.cpp; decoy/greeting.h must never be. */
#define GREETING "hello from weft compile"
