/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages for `weft view`, matched as weft check matches them: per channel
 * (communicator, sender's and receiver's world rank, tag), the k-th send
 * with the k-th receive, receives ordered by when they were posted. Pass A
 * spilled sends and receives sorted by channel and order, so matching is
 * one merge of the two sorted streams; each pair goes into a spill sorted
 * by receive time (the messages table's order), its transfer time into the
 * histogram that may pick the long messages. */
#include "view.h"

static int compare_channel(const uint64_t *a, const uint64_t *b)
{
    for (int k = P2P_COMM; k <= P2P_TAG; k++) {
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    }
    return 0;
}

weft_status weft__view_match(view_state *s)
{
    uint64_t send[P2P_WORDS], recv[P2P_WORDS];
    if (!weft__view_spill_rewind(&s->sends) || !weft__view_spill_rewind(&s->receives))
        return WEFT_ERR_IO;
    bool have_send = weft__view_spill_next(&s->sends, send);
    bool have_recv = weft__view_spill_next(&s->receives, recv);
    uint64_t seq = 0;
    while (have_send || have_recv) {
        int order = !have_send ? 1 : !have_recv ? -1 : compare_channel(send, recv);
        if (order < 0) {
            s->stats.unmatched_sends++;
            have_send = weft__view_spill_next(&s->sends, send);
            continue;
        }
        if (order > 0) {
            s->stats.unmatched_receives++;
            have_recv = weft__view_spill_next(&s->receives, recv);
            continue;
        }
        int64_t transfer = (int64_t)(recv[P2P_TIME] - send[P2P_TIME]);
        uint64_t length = transfer < 0 ? (uint64_t)-transfer : (uint64_t)transfer;
        uint64_t message[MSG_WORDS] = {[MSG_RECV] = recv[P2P_TIME],
                                       [MSG_LOC] = recv[P2P_LOC],
                                       [MSG_SEQ] = seq++,
                                       [MSG_TRANSFER] = (uint64_t)transfer,
                                       [MSG_SENDER] = send[P2P_LOC],
                                       [MSG_TAG] = send[P2P_TAG],
                                       [MSG_BYTES] = send[P2P_BYTES],
                                       [MSG_COMM] = send[P2P_COMM]};
        weft__view_spill_add(&s->messages, message);
        s->transfers[weft__view_bucket(length)]++;
        s->stats.message_bytes_est +=
            3 + weft__view_uvar_length(weft__view_zigzag(transfer)) +
            weft__view_uvar_length(send[P2P_LOC]) + weft__view_uvar_length(recv[P2P_LOC]) +
            weft__view_uvar_length(send[P2P_TAG]) + weft__view_uvar_length(send[P2P_BYTES]) +
            weft__view_uvar_length(send[P2P_COMM]);
        s->stats.messages++;
        have_send = weft__view_spill_next(&s->sends, send);
        have_recv = weft__view_spill_next(&s->receives, recv);
    }
    bool failed = s->sends.failed || s->receives.failed || s->messages.failed;
    weft__view_spill_free(&s->sends);
    weft__view_spill_free(&s->receives);
    if (failed) {
        weft__trace_report(&s->read, OTF2_SUCCESS, NULL,
                           "cannot write temporary files (TMPDIR or /tmp) for");
        return WEFT_ERR_IO;
    }
    return WEFT_OK;
}
