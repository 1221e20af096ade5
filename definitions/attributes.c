/* SPDX-License-Identifier: BSD-3-Clause */
/* The fixed lists of event attributes and parameters (weft/definitions.h)
 * and whether a registry uses them: one is used exactly when its name is
 * among the registry's strings, which merging registries carries over. */
#include "registry_internal.h"

#define ATTRIBUTE_TEXTS(id, name, description) {name, description},
static const struct {
    const char *name, *description;
} attributes[] = {WEFT_ATTRIBUTE_LIST(ATTRIBUTE_TEXTS)};
#undef ATTRIBUTE_TEXTS

const char *weft_attribute_name(uint32_t attribute)
{
    return attribute < WEFT_ATTRIBUTE_COUNT ? attributes[attribute].name : NULL;
}

const char *weft_attribute_description(uint32_t attribute)
{
    return attribute < WEFT_ATTRIBUTE_COUNT ? attributes[attribute].description : NULL;
}

weft_status weft_registry_attribute_use(weft_registry *reg, uint32_t attribute)
{
    if (!reg || attribute >= WEFT_ATTRIBUTE_COUNT)
        return WEFT_ERR_INVALID;
    weft_string name;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = weft__registry_intern_locked(reg, attributes[attribute].name, &name);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

bool weft_registry_attribute_used(const weft_registry *reg, uint32_t attribute)
{
    if (!reg || attribute >= WEFT_ATTRIBUTE_COUNT)
        return false;
    weft__registry_lock(reg);
    weft_string name = weft__registry_find_locked(reg, attributes[attribute].name);
    weft__registry_unlock(reg);
    return name.id != WEFT_INVALID_ID;
}

#define PARAMETER_TEXT(id, name) name,
static const char *const parameters[] = {WEFT_PARAMETER_LIST(PARAMETER_TEXT)};
#undef PARAMETER_TEXT

const char *weft_parameter_name(uint32_t parameter)
{
    return parameter < WEFT_PARAMETER_COUNT ? parameters[parameter] : NULL;
}

weft_status weft_registry_parameter_use(weft_registry *reg, uint32_t parameter)
{
    if (!reg || parameter >= WEFT_PARAMETER_COUNT)
        return WEFT_ERR_INVALID;
    weft_string name;
    pthread_mutex_lock(&reg->mutex);
    weft_status st = weft__registry_intern_locked(reg, parameters[parameter], &name);
    pthread_mutex_unlock(&reg->mutex);
    return st;
}

bool weft_registry_parameter_used(const weft_registry *reg, uint32_t parameter)
{
    if (!reg || parameter >= WEFT_PARAMETER_COUNT)
        return false;
    weft__registry_lock(reg);
    weft_string name = weft__registry_find_locked(reg, parameters[parameter]);
    weft__registry_unlock(reg);
    return name.id != WEFT_INVALID_ID;
}
