/* SPDX-License-Identifier: BSD-3-Clause */
/* Slot counts, names and the decoder of the buffer encoding; the encoders
 * are inline in event_codec.h. */
#include "event_codec.h"

#include "weft/definitions.h"

#define PAYLOAD_ENTRY(kind, payload) [WEFT_EVENT_##kind] = (payload),
static const uint8_t payload_slots[WEFT_EVENT_KIND_COUNT] = {WEFT_EVENT_LIST(PAYLOAD_ENTRY)};
#undef PAYLOAD_ENTRY

#define NAME_ENTRY(kind, payload) [WEFT_EVENT_##kind] = #kind,
static const char *const kind_names[WEFT_EVENT_KIND_COUNT] = {WEFT_EVENT_LIST(NAME_ENTRY)};
#undef NAME_ENTRY

const char *weft__event_kind_name(uint8_t kind)
{
    if (kind == WEFT_EVENT_NONE || kind >= WEFT_EVENT_KIND_COUNT)
        return "INVALID";
    return kind_names[kind];
}

size_t weft__event_slots(uint8_t kind, uint32_t value_count)
{
    if (kind == WEFT_EVENT_METRIC)
        return 1 + (value_count + 1) / 2;
    return 1 + payload_slots[kind];
}

static uint32_t low32(uint64_t word)
{
    return (uint32_t)word;
}

static uint32_t high32(uint64_t word)
{
    return (uint32_t)(word >> 32);
}

size_t weft__event_decode(const weft_slot *slots, size_t available, weft_event *out)
{
    if (available == 0)
        return 0;
    const weft_slot *s = slots;
    uint8_t kind = s->head.kind;
    if (kind == WEFT_EVENT_NONE || kind >= WEFT_EVENT_KIND_COUNT)
        return 0;
    if (kind == WEFT_EVENT_METRIC && s->head.count > WEFT_METRIC_MAX_VALUES)
        return 0;
    size_t size = weft__event_slots(kind, s->head.count);
    if (size > available)
        return 0;

    *out = (weft_event){.kind = kind, .time = s->head.time, .small = s->head.small,
                        .ref = s->head.ref};
    switch (kind) {
    case WEFT_EVENT_TASK_CREATE:
        out->attribute_string =
            s[1].word[1] ? (uint32_t)(s[1].word[1] - 1) : WEFT_INVALID_ID;
        out->a = low32(s[1].word[0]);
        out->b = high32(s[1].word[0]);
        break;
    case WEFT_EVENT_LOCK_ACQUIRE:
    case WEFT_EVENT_LOCK_RELEASE:
    case WEFT_EVENT_TASK_SWITCH:
    case WEFT_EVENT_TASK_COMPLETE:
        out->a = low32(s[1].word[0]);
        out->b = high32(s[1].word[0]);
        break;
    case WEFT_EVENT_MPI_ISEND:
    case WEFT_EVENT_MPI_IRECV:
        out->request = s[2].word[0];
        out->a = low32(s[1].word[0]);
        out->b = high32(s[1].word[0]);
        out->bytes = s[1].word[1];
        break;
    case WEFT_EVENT_MPI_SEND:
    case WEFT_EVENT_MPI_RECV:
        out->a = low32(s[1].word[0]);
        out->b = high32(s[1].word[0]);
        out->bytes = s[1].word[1];
        break;
    case WEFT_EVENT_MPI_ISEND_COMPLETE:
    case WEFT_EVENT_MPI_IRECV_REQUEST:
    case WEFT_EVENT_MPI_REQUEST_TEST:
    case WEFT_EVENT_MPI_REQUEST_CANCELLED:
        out->request = s[1].word[0];
        break;
    case WEFT_EVENT_BUFFER_FLUSH:
    case WEFT_EVENT_PARAMETER:
        out->bytes = s[1].word[0];
        break;
    case WEFT_EVENT_MPI_COLLECTIVE_END:
        out->bytes = s[1].word[0];
        out->bytes_received = s[1].word[1];
        out->a = low32(s[2].word[0]);
        break;
    case WEFT_EVENT_METRIC:
        out->value_count = s->head.count;
        out->values = s[1].word;
        break;
    default:
        if (WEFT_EVENT_IS_IO_RMA(kind)) {
            out->a = low32(s[1].word[0]);
            out->b = high32(s[1].word[0]);
            out->bytes = s[1].word[1];
            out->bytes_received = s[2].word[0];
            out->request = s[2].word[1];
        }
        break;
    }
    return size;
}
