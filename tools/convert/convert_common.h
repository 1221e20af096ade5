/* SPDX-License-Identifier: BSD-3-Clause */
/* What weft convert's readers share: the MPI collective an MPI function
 * name stands for, the role an OpenMP region name stands for, and message
 * channels that give a receive the size of its send (neither EPILOG nor
 * elg2otf's OTF records a receive's size). Private to tools/. */
#ifndef WEFT_TOOLS_CONVERT_COMMON_H
#define WEFT_TOOLS_CONVERT_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "weft/definitions.h"

/* The WEFT_COLLECTIVE_* operation of an MPI function ("MPI_Allreduce"), or
 * -1 for a name that is none of them. */
int weft__convert_collective_op(const char *name);

/* The OpenMP role of a region named "!$omp CONSTRUCT @file:line" as
 * KOJAK, EPIK, VampirTrace and weft name them; false for other names. */
bool weft__convert_omp_role(const char *name, weft_region_role *role);

/* Channels (sender, receiver, communicator, tag), each a FIFO of the sizes
 * of the sends not yet received. Memory grows with the messages in flight. */
typedef struct convert_channels convert_channels;

convert_channels *weft__convert_channels_new(void);
void weft__convert_channels_free(convert_channels *ch);
/* False when out of memory. */
bool weft__convert_channel_send(convert_channels *ch, uint32_t from, uint32_t to, uint32_t comm,
                                uint32_t tag, uint64_t size);
/* The size of the oldest send on the channel, removed; false when none. */
bool weft__convert_channel_receive(convert_channels *ch, uint32_t from, uint32_t to, uint32_t comm,
                                   uint32_t tag, uint64_t *size);

#endif /* WEFT_TOOLS_CONVERT_COMMON_H */
