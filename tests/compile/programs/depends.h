#define DEPENDS_N 10
