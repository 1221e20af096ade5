/* The OpenMP region table of weft/openmp.h. */
#include "weft/openmp.h"

#define TEXT(kind, text, role) [WEFT_OMP_##kind] = text,
static const char *const texts[WEFT_OMP_REGION_COUNT] = {WEFT_OMP_REGION_LIST(TEXT)};
#undef TEXT

#define ROLE(kind, text, role) [WEFT_OMP_##kind] = WEFT_REGION_ROLE_##role,
static const weft_region_role roles[WEFT_OMP_REGION_COUNT] = {WEFT_OMP_REGION_LIST(ROLE)};
#undef ROLE

const char *weft_omp_region_text(weft_omp_region kind)
{
    return (unsigned)kind < WEFT_OMP_REGION_COUNT ? texts[kind] : texts[WEFT_OMP_UNKNOWN];
}

weft_region_role weft_omp_region_role(weft_omp_region kind)
{
    return (unsigned)kind < WEFT_OMP_REGION_COUNT ? roles[kind] : WEFT_REGION_ROLE_UNKNOWN;
}
