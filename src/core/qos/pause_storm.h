// SPDX-License-Identifier: GPL-2.0-only
/* What PFC did on a lossless priority, judged from its counters: a pause storm (qos.pause_storm) or packets
 * dropped where PFC should have kept them (qos.discards). One reading (check: since the driver started counting)
 * or the growth between two (counters: over an interval or a command). Pure. */
#ifndef ROCE_DOCTOR_CORE_QOS_PAUSE_STORM_H
#define ROCE_DOCTOR_CORE_QOS_PAUSE_STORM_H

#include <stdbool.h>

#include "core/findings.h"
#include "model/qos.h"

/* Pause frames as a share of the packets they held back, above which a priority is pausing more than it is
 * moving: a healthy lossless priority pauses in bursts under incast, a few frames per thousand packets. */
#define QOS_PAUSE_SHARE_PERCENT 1.0
/* Fewer pause frames than this say nothing: one incast burst sends hundreds. */
#define QOS_PAUSE_MIN 1000
#define QOS_PAUSE_MIN_INTERVAL 100
/* Over an interval: a priority paused this share of the time stood still. */
#define QOS_PAUSED_TIME_PERCENT 20.0
/* Port-wide receive drops for lack of buffer, per million packets, above which a port with PFC loses more than a
 * lossless fabric should (go-back-N makes each drop cost a window of retransmits). */
#define QOS_DISCARDS_PER_MILLION 100

/* The findings for port p from counters c: its own reading when seconds is 0 (check; says ok too), or the growth
 * over seconds (counters; says only trouble). p gives the names and which priorities have PFC. */
void qos_judge_counters(const struct qos_port *p, const struct qos_counters *c, double seconds, struct findings *out);

#endif
