// SPDX-License-Identifier: GPL-2.0-only
/* The patterns explain recognises. Each row was read in the published source named in its source member
 * (NVIDIA/nccl tags v2.18.5-1 to v2.29.7-1, linux-rdma/perftest 4.5, rdma-core, PyTorch c10d) or in the real
 * logs of tests/logs/. Rows that share an id are the forms one message took across versions. Order matters
 * only among problems: a line gives at most one problem, the first row that matches (specific before
 * generic); every fact row that matches is kept. */
#include "core/log/log_patterns.h"

#define MEMLOCK_CHECKS "memlock.limit,memlock.pam,memlock.systemd,memlock.register"
#define MEMLOCK_FIX "roce-doctor check --only memlock    # which limit is low, and the file that fixes it\n" \
		    "ulimit -l unlimited                 # in the job's shell (docker: --ulimit memlock=-1:-1)"
#define GID_FIX "roce-doctor gid --suggest    # the RoCE v2 GID index of each port\n" \
		"roce-doctor check --only gid"
#define COLLECTIVE_FIX "grep -h 'ast enqueued' EVERY-RANK.log    # a rank with a lower count never issued the " \
		       "collective\n" \
		       "roce-doctor explain JOB.log    # all ranks' output in one file (torchrun's own output, or cat)\n" \
		       "TORCH_NCCL_DESYNC_DEBUG=1 TORCH_DISTRIBUTED_DEBUG=DETAIL    # rerun with these: PyTorch names the " \
		       "rank that did not join"
#define REACH_CHECKS "gid.env,gid.rocev2,firewall.rules,firewall.firewalld,port.state,netdev.mtu,net.same_subnet"
#define REACH_FIX "roce-doctor check --peer PEER    # on one node, roce-doctor serve on the other: the rails, " \
		  "GIDs and udp 4791 between them"

const struct log_pattern log_patterns[] = {
	/* ---- facts ---- */
	{ "log.nccl.version", SEVERITY_INFO, "NCCL version ", "NCCL version ([0-9]+\\.[0-9]+\\.[0-9]+)",
	  "NCCL init.cc, every version (the banner; PyTorch repeats it in its errors)", NULL, "", NULL,
	  "nccl_version", "{1}", NULL },
	{ "log.nccl.version", SEVERITY_INFO, "NCCL version ", "NCCL version [0-9.]+\\+cuda([0-9.]+)",
	  "NCCL init.cc, every version", NULL, "", NULL, "cuda_runtime", "{1}", NULL },
	{ "log.nccl.cuda_driver", SEVERITY_INFO, "cudaDriverVersion ", "cudaDriverVersion ([0-9]+)",
	  "NCCL misc/cudawrap.cc, 2.12 and later", NULL, "", NULL, "cuda_driver", "{1}", NULL },
	{ "log.nccl.bootstrap_if", SEVERITY_INFO, "Bootstrap", "Bootstrap ?: Using ?(.+)$",
	  "NCCL bootstrap.cc: \"Bootstrap : Using\" to 2.23, \"Bootstrap: Using\" from 2.24", NULL, "", NULL,
	  "bootstrap_interface", "{1}", NULL },
	{ "log.nccl.ib_devices", SEVERITY_INFO, "NET/IB", "NET/IB ?: Using(( \\[[0-9]+\\][^ ;]+)+)",
	  "NCCL transport/net_ib.cc (to 2.28), net_ib/init.cc (2.29 on): \"NET/IB : Using%s %s; OOB %s:%s\"", NULL, "", NULL,
	  "ib_devices", "{1}", NULL },
	{ "log.nccl.ib_devices", SEVERITY_INFO, "; OOB ", "NET/IB ?: Using.*; OOB ([^ ]+)",
	  "NCCL transport/net_ib.cc / net_ib/init.cc, every version", NULL, "", NULL, "ib_oob_interface", "{1}", NULL },
	{ "log.nccl.socket_devices", SEVERITY_INFO, "NET/Socket", "NET/Socket ?: Using(( \\[[0-9]+\\][^ ]+)+)",
	  "NCCL transport/net_socket.cc: \"NET/Socket : Using%s\", every version", NULL, "", NULL,
	  "socket_interfaces", "{1}", NULL },
	{ "log.nccl.network", SEVERITY_INFO, "Using network ", "Using network ([A-Za-z0-9_]+)",
	  "NCCL init.cc: \"Using network %s\", every version", NULL, "", NULL, "network", "{1}", NULL },
	{ "log.nccl.transport", SEVERITY_INFO, " via ", "\\] via (NET/[A-Za-z]+(/[0-9]+)?(\\([0-9]+\\))?(/GDRDMA)?"
	  "(/Shared)?|P2P/[A-Za-z/]+|SHM/[A-Za-z/]+|COLLNET/[A-Za-z/]+)",
	  "NCCL transport/net.cc: \"Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s\" (and p2p.cc, "
	  "shm.cc), every version; NCCL_DEBUG_SUBSYS must include INIT", NULL, "", NULL, "transport", "{1}", NULL },
	{ "log.nccl.gid_index", SEVERITY_INFO, "NCCL_IB_GID_INDEX set", "NCCL_IB_GID_INDEX set by environment to "
	  "(-?[0-9]+)", "NCCL param.cc: \"%s set by environment to %lld.\", every version", NULL, "", NULL,
	  "gid_index", "{1}", NULL },
	{ "log.nccl.gid_index", SEVERITY_INFO, "local GID index ", "local GID index (-?[0-9]+)",
	  "NCCL misc/ibvwrap.cc ibvModifyQpLog, 2.26 on", NULL, "", NULL, "gid_index", "{1}", NULL },
	/* The local GID a connection uses: the cause rules (log_causes.c) read a link-local one on RoCE */
	{ "log.nccl.gid", SEVERITY_INFO, "localGid ", "localGid ([0-9a-fA-F:.]+)",
	  "NCCL transport/net_ib.cc completion WARN \"... localGid %s remoteGid %s\", 2.18 to 2.19", NULL, "", NULL,
	  "local_gid", "{1}", NULL },
	{ "log.nccl.gid", SEVERITY_INFO, "GID ", "GID (-?[0-9]+) \\(([0-9A-Fa-f]+)/([0-9A-Fa-f]+)\\)",
	  "NCCL transport/net_ib.cc ncclIbConnect / ncclIbAccept INFO \"NET/IB: Dev %d Port %d qpn %d mtu %d GID %ld "
	  "(%lX/%lX)\" (2.4 to 2.18, later with more fields; net_ib/connect.cc from 2.29): the index (the "
	  "NCCL_IB_GID_INDEX value to 2.20, the index in use from 2.21), then the subnet prefix and interface id as "
	  "little-endian 64-bit numbers in upper case (fe80:: prints 80FE)", NULL, "", NULL,
	  "nccl_gid", "{1} ({2}/{3})", NULL },
	{ "log.roce_doctor.serve", SEVERITY_INFO, "serve listening: ", "serve listening: (.*)$",
	  "roce-doctor serve: src/proto/server.c \"serve listening: on %s port %u\" (real: tests/logs/vm-pair-rxe)",
	  NULL, "", NULL, "serve_listening", "{1}", NULL },
	/* PyTorch's per-rank collective counters and communicator init: log_causes.c compares the ranks */
	{ "log.torch.collective_progress", SEVERITY_INFO, "ast enqueued ",
	  "Rank ([0-9]+)\\].*[Ll]ast enqueued (NCCL )?work: ([0-9]+), last completed [A-Za-z ]*work: ([0-9]+)",
	  "PyTorch ProcessGroupNCCL.cpp: \"PG status: last enqueued work: %d, last completed work: %d\" and the dump "
	  "signal's \"Last enqueued NCCL work: %d, last completed NCCL work: %d\" (2.4 on; real: tests/logs/gpu-2rank)",
	  NULL, "", NULL, "collective_progress", "rank {1}: last enqueued {3}, last completed {4}", NULL },
	{ "log.torch.collective_progress", SEVERITY_INFO, "due to a collective timeout from",
	  "Rank ([0-9]+)\\] Received a dump signal due to a collective timeout from +rank ([0-9]+)",
	  "PyTorch ProcessGroupNCCL.cpp, 2.4 on (real: tests/logs/gpu-2rank)", NULL, "", NULL, "timeout_from",
	  "rank {1} told of a timeout on rank {2}", NULL },
	{ "log.nccl.comm_init", SEVERITY_INFO, " - Init ",
	  "ncclCommInitRank[A-Za-z]* comm 0x[0-9a-fA-F]+ rank ([0-9]+) nranks ([0-9]+) .*commId (0x[0-9a-fA-F]+) - "
	  "Init (START|COMPLETE)",
	  "NCCL init.cc: \"%s comm %p rank %d nranks %d cudaDev %d nvmlDev %d busId %lx commId 0x%llx - Init "
	  "START\" / \"- Init COMPLETE\", 2.18 on", NULL, "", NULL, "comm_init", "{3} rank {1} of {2}: {4}", NULL },
	{ "log.job.stopped", SEVERITY_INFO, "death signal", "Received ([0-9]+) death signal",
	  "PyTorch torch/distributed/elastic/agent/server/api.py: torchrun was sent a signal (Ctrl-C, timeout, scancel)",
	  NULL, "", NULL, "job_stopped", "torchrun received signal {1}", NULL },
	{ "log.job.stopped", SEVERITY_INFO, " CANCELLED AT ", "\\*+ (JOB|STEP) ([0-9.]+) ON ([^ ]+) CANCELLED AT ([^ ]+)",
	  "Slurm slurmstepd: \"*** JOB %u ON %s CANCELLED AT %s ***\" (scancel or the time limit)", NULL, "", NULL,
	  "job_stopped", "Slurm cancelled {1} {2} at {4}", NULL },
	{ "log.nccl.env", SEVERITY_INFO, " set by environment to ", "(NCCL_[A-Z0-9_]+) set by environment to (.*[^.])",
	  "NCCL param.cc and others, every version", NULL, "", NULL, "environment", "{1}={2}", NULL },
	{ "log.nccl.env", SEVERITY_INFO, "NCCL_IB_HCA set to ", "(NCCL_IB_HCA) set to ([^ ]+)",
	  "NCCL transport/net_ib/init.cc, 2.29 on", NULL, "", NULL, "environment", "{1}={2}", NULL },
	{ "log.nccl.gdr", SEVERITY_INFO, "GPU Direct RDMA ", "NET/([A-Za-z]+) ?: GPU Direct RDMA (Enabled|Disabled) for "
	  "HCA ([0-9]+) '([^']+)'",
	  "NCCL graph/topo.cc (transport/net.cc before 2.19): \"NET/%s : GPU Direct RDMA %s for HCA %d '%s'\"",
	  NULL, "", NULL, "gdr", "{4} ({1}): {2}", NULL },
	{ "log.perftest.device", SEVERITY_INFO, "Device ", "Device +: ([^ \t]+)",
	  "perftest perftest_parameters.c ctx_print_test_info, 4.x", NULL, "", NULL, "perftest_device", "{1}", NULL },
	{ "log.perftest.gid_index", SEVERITY_INFO, "GID index ", "^ *GID index +: ([0-9]+)",
	  "perftest perftest_parameters.c ctx_print_test_info, 4.x", NULL, "", NULL, "gid_index", "{1}", NULL },
	{ "log.perftest.link_type", SEVERITY_INFO, "Link type ", "^ *Link type +: ([A-Za-z]+)",
	  "perftest perftest_parameters.c ctx_print_test_info, 4.x", NULL, "", NULL, "link_type", "{1}", NULL },
	{ "log.perftest.gid", SEVERITY_INFO, "GID: ", "^ *GID: ([0-9a-fA-F:]+)$",
	  "perftest perftest_communication.c ctx_print_pingpong_data, 4.x: local, then remote address", NULL, "",
	  NULL, "gid", "{1}", NULL },

	/* ---- problems, specific before generic ---- */
	{ "log.nccl.ib_disabled", SEVERITY_WARN, "NCCL_IB_DISABLE set by environment to 1", NULL,
	  "NCCL param.cc: \"%s set by environment to %lld.\", every version (real: tests/logs/h100-nccl-2.28.9)",
	  "NCCL_IB_DISABLE=1 turns NCCL's IB transport off: every byte goes over TCP sockets", "nccl.ib_disable",
	  "unset NCCL_IB_DISABLE    # and its line in /etc/nccl.conf, ~/.nccl.conf or NCCL_CONF_FILE\n"
	  "roce-doctor check --only nccl.ib_disable", NULL, NULL, NULL },
	{ "log.nccl.net_plugin_missing", SEVERITY_WARN, "NET/Plugin: Could not find: ",
	  "NET/Plugin: Could not find: ([^ ]+) (libnccl-net-[^ ]+\\.so)",
	  "NCCL plugin/plugin_open.cc: \"%s/Plugin: Could not find:%s%s%s\", 2.28 on; two names: NCCL_NET_PLUGIN "
	  "was set (real: tests/logs/h100-nccl-2.28.9)",
	  "NCCL_NET_PLUGIN={1} was asked for, but neither {1} nor {2} loads: NCCL runs its internal transports",
	  "", "unset NCCL_NET_PLUGIN    # or put {2} where the loader finds it (LD_LIBRARY_PATH)\n"
	  "roce-doctor nccl    # the NCCL libraries and net plugins a job on this node can load", NULL, NULL, NULL },
	{ "log.nccl.net_plugin_broken", SEVERITY_WARN, "Plugin",
	  "NET/Plugin ?: .*(undefined symbol: [^ ]+|wrong ELF class: [A-Z0-9]+|version `[^']+' not found)",
	  "NCCL's plugin loader with dlerror(): init.cc / net.cc \"NET/Plugin : Plugin load returned %d : %s.\" "
	  "(2.4 to 2.20), \"NET/Plugin : Plugin load (%s) returned %d : %s\" (2.17 to 2.18), \"NET/Plugin: Plugin "
	  "load returned %d : %s when loading %s\" (2.21), plugin/plugin_open.cc \"%s/Plugin: %s: %s\" (2.28 on)",
	  "a NCCL net plugin was found but does not load ({1}): it was built for another NCCL, CUDA or C library, "
	  "or a library it needs is missing; NCCL runs its internal transports instead",
	  "nccl.net_plugin",
	  "ldd PLUGIN.so    # the plugin this line names: the library or symbol it lacks\n"
	  "roce-doctor nccl    # the NCCL libraries and net plugins a job on this node can load", NULL, NULL, NULL },
	{ "log.nccl.ibverbs_missing", SEVERITY_WARN, "Failed to open libibverbs.so", NULL,
	  "NCCL misc/ibvwrap.cc: WARN \"Failed to open libibverbs.so[.1]\" (2.4 to 2.10), INFO (2.11 on; "
	  "misc/ibvsymbols.cc from 2.18)",
	  "NCCL could not load libibverbs: no RDMA user space in this host or container image, so its IB transport "
	  "is off and it falls back to TCP sockets",
	  "verbs.provider,rdma.devices",
	  "sudo apt-get install libibverbs1 ibverbs-providers    # Debian/Ubuntu (rdma-core on RHEL); in a container, "
	  "in its image\nroce-doctor check --only verbs,rdma", NULL, NULL, NULL },
	{ "log.nccl.ib_no_device", SEVERITY_WARN, "NET/IB : No device found", NULL,
	  "NCCL transport/net_ib.cc (to 2.28), net_ib/init.cc (2.29 on): INFO \"NET/IB : No device found.\"",
	  "NCCL's IB transport found no usable RDMA port: no RDMA device, NCCL_IB_HCA matches none, no uverbs "
	  "access (container) or no verbs provider library; NCCL falls back to TCP sockets",
	  "rdma.devices,rdma.uverbs,kernel.modules,nccl.ib_hca",
	  "roce-doctor check --only rdma,kernel,nccl.ib_hca", NULL, NULL, NULL },
	{ "log.nccl.no_net_plugin", SEVERITY_FAIL, "Failed to initialize any NET plugin", NULL,
	  "NCCL plugin/net.cc, 2.27 on",
	  "no network transport could start: with NCCL_NET=IB forced, the IB transport found no device",
	  "rdma.devices,rdma.uverbs,kernel.modules,nccl.ib_hca",
	  "roce-doctor check --only rdma,kernel,nccl    # why there is no usable RDMA port\n"
	  "unset NCCL_NET                                # or let NCCL fall back to sockets (slow)", NULL, NULL, NULL },
	{ "log.nccl.socket_fallback", SEVERITY_WARN, "Using network Socket", NULL,
	  "NCCL init.cc: \"Using network %s\", every version",
	  "NCCL moves the data over TCP sockets, not RDMA: about ten times slower on a RoCE fabric",
	  "rdma.devices,nccl.ib_disable,nccl.ib_hca",
	  "roce-doctor check --only rdma,nccl    # why NCCL's IB transport has no port (NCCL_IB_DISABLE, NCCL_IB_HCA)",
	  NULL, NULL, NULL },
	{ "log.nccl.bootstrap_no_interface", SEVERITY_FAIL, "no socket interface found", NULL,
	  "NCCL bootstrap.cc: WARN \"Bootstrap : no socket interface found\", every version",
	  "NCCL_SOCKET_IFNAME (or NCCL's default choice) names no interface that is up with an address",
	  "nccl.socket_ifname",
	  "roce-doctor check --only nccl.socket_ifname    # the interfaces that are up, and the setting that fits",
	  NULL, NULL, NULL },
	{ "log.nccl.no_socket_interface", SEVERITY_FAIL, " interface found",
	  "(NET/Socket : no interface found|NET/Socket : No usable listening interface found|NET/IB : No IP interface "
	  "found)",
	  "NCCL transport/net_socket.cc \"NET/Socket : no interface found\" and bootstrap.cc \"NET/Socket : No "
	  "usable listening interface found\" (every version), transport/net_ib.cc \"NET/IB : No IP interface "
	  "found.\" (2.4 to 2.28; net_ib/init.cc from 2.29)",
	  "NCCL found no interface that is up with an IP address to open its TCP sockets on: NCCL_SOCKET_IFNAME "
	  "matches none, or the interfaces it names are down or have no address",
	  "nccl.socket_ifname",
	  "roce-doctor check --only nccl.socket_ifname    # the interfaces that are up, and the setting that fits",
	  NULL, NULL, NULL },
	{ "log.nccl.modify_qp_timeout", SEVERITY_FAIL, "ibv_modify_qp failed",
	  "ibv_modify_qp failed with (error Connection timed out|110 )",
	  "NCCL misc/ibvwrap.cc: \"Call to ibv_modify_qp failed with error %s errno %d\" (2.19-2.25), \"Call to "
	  "ibv_modify_qp failed with %d %s, %s\" with dev, states and GIDs (2.26 on)",
	  "moving the queue pair to RTR/RTS timed out (ETIMEDOUT): the peer's GID is not reachable from this port "
	  "(another subnet or rail, a link-local fe80:: GID) or the path ARP resolves is wrong",
	  REACH_CHECKS, REACH_FIX, NULL, NULL, NULL },
	{ "log.nccl.modify_qp_einval", SEVERITY_FAIL, "ibv_modify_qp failed",
	  "ibv_modify_qp failed with (error Invalid argument|22 )",
	  "NCCL misc/ibvwrap.cc, 2.19 on (2.26 on with dev, states and GIDs, then a HINT about NCCL_IB_GID_INDEX)",
	  "the queue pair was given an invalid attribute (EINVAL): most often a forced NCCL_IB_GID_INDEX that is "
	  "empty or not RoCE v2 on this port",
	  "gid.env,gid.rocev2",
	  "unset NCCL_IB_GID_INDEX    # NCCL >= 2.21 picks a RoCE v2 GID itself\n" GID_FIX, NULL, NULL, NULL },
	{ "log.nccl.modify_qp", SEVERITY_FAIL, "ibv_modify_qp failed", "ibv_modify_qp failed( with)? (.*)$",
	  "NCCL misc/ibvwrap.cc, every version",
	  "moving the queue pair to RTR/RTS failed ({2})", "gid.env,gid.rocev2,port.state,port.active_mtu",
	  GID_FIX, NULL, NULL, NULL },
	{ "log.nccl.reg_mr_nomem", SEVERITY_FAIL, "ibv_reg_mr", "ibv_reg_mr[a-z0-9_]* failed.*(Cannot allocate memory|"
	  "errno 12)",
	  "NCCL misc/ibvwrap.cc: \"Call to ibv_reg_mr failed with error %s\" / ibv_reg_mr_iova2, every version",
	  "registering memory failed with ENOMEM: the process's memlock limit (RLIMIT_MEMLOCK) is too low for "
	  "NCCL's buffers", MEMLOCK_CHECKS, MEMLOCK_FIX, NULL, NULL, NULL },
	{ "log.nccl.reg_mr", SEVERITY_FAIL, "ibv_reg_mr", "(ibv_reg_[a-z0-9_]+) failed(.*)$",
	  "NCCL misc/ibvwrap.cc, every version (ibv_reg_dmabuf_mr from 2.12)",
	  "registering memory failed ({1}{2}): for GPU memory, GPUDirect RDMA (nvidia_peermem or DMA-BUF) is "
	  "missing; else the memlock limit",
	  "gpu.peermem,memlock.register,memlock.limit",
	  "roce-doctor check --only gpu.peermem,memlock\nsudo modprobe nvidia_peermem", NULL, NULL, NULL },
	{ "log.nccl.create_qp", SEVERITY_FAIL, "ibv_create_qp", "Call to ibv_create_qp(_ex)? failed",
	  "NCCL misc/ibvwrap.cc: \"Call to ibv_create_qp failed with error %s\", 2.19 on",
	  "creating a queue pair failed: the memlock limit (QP buffers are pinned) or the device's QP limit",
	  MEMLOCK_CHECKS, MEMLOCK_FIX, NULL, NULL, NULL },
	{ "log.nccl.wc_retry_exceeded", SEVERITY_FAIL, "Got completion from peer",
	  "Got completion from peer ([^ ]+) with (error |status=)(IBV_WC_RETRY_EXC_ERR\\()?12[^0-9]",
	  "NCCL transport/net_ib.cc: \"with error %d\" (2.10 to 2.19), \"with status=%d\" (2.20 to 2.28.7), "
	  "\"with status=%s(%d)\" (2.28.9; net_ib/p2p.cc from 2.29)",
	  "RDMA packets to {1} were never acknowledged (IBV_WC_RETRY_EXC_ERR, 12): a GID the peer cannot reach "
	  "(link-local fe80::, another subnet), udp 4791 dropped, or a lossy fabric under load",
	  REACH_CHECKS, REACH_FIX, NULL, NULL, NULL },
	{ "log.nccl.wc_retry_exceeded", SEVERITY_FAIL, "Got completion with error",
	  "Got completion with error (12), opcode ([0-9]+), len ([0-9]+), vendor err ([0-9]+)",
	  "NCCL transport/net_ib.cc: \"NET/IB : Got completion with error %d, opcode %d, len %d, vendor err %d\" "
	  "(before the peer was named, 2.4 to 2.9)",
	  "RDMA packets were never acknowledged. Vendor err {vend:4}. Status {wc:1}",
	  REACH_CHECKS, REACH_FIX, NULL, NULL, NULL },
	{ "log.ib.retry_exceeded", SEVERITY_FAIL, "transport retry counter exceeded", NULL,
	  "libibverbs ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR), printed by perftest and others",
	  "RDMA packets were never acknowledged (IBV_WC_RETRY_EXC_ERR, 12): a GID the peer cannot reach, udp 4791 "
	  "dropped, or a lossy fabric", REACH_CHECKS, REACH_FIX, NULL, NULL, NULL },
	{ "log.nccl.wc_error", SEVERITY_FAIL, "Got completion from peer",
	  "Got completion from peer ([^ ]+) with (error |status=)([A-Z_]+\\()?([0-9]+)",
	  "NCCL transport/net_ib.cc / net_ib/p2p.cc, every version",
	  "a work request to {1} completed with status {wc:4}",
	  "gid.env,port.state", "roce-doctor check --peer PEER", NULL, NULL, NULL },
	{ "log.nccl.wc_error", SEVERITY_FAIL, "Got completion with error",
	  "Got completion with error ([0-9]+), opcode ([0-9]+), len ([0-9]+), vendor err ([0-9]+)",
	  "NCCL transport/net_ib.cc \"NET/IB : Got completion with error %d, opcode %d, len %d, vendor err %d\" "
	  "(2.4 to 2.9)",
	  "a work request failed. Vendor err {vend:4}. Status {wc:1}",
	  "gid.env,port.state", "roce-doctor check --peer PEER", NULL, NULL, NULL },
	/* ibv_event_type_str(IBV_EVENT_GID_CHANGE) is "GID table change": how NCCL 2.4 to 2.22 printed it */
	{ "log.nccl.gid_table_changed", SEVERITY_WARN, "Got async event", "Got async event : GID table change$",
	  "NCCL transport/net_ib.cc \"NET/IB : Got async event : %s\" (2.4 to 2.19), \"NET/IB : %s:%d Got async "
	  "event : %s\" (2.20 to 2.22), %s being ibv_event_type_str(IBV_EVENT_GID_CHANGE)",
	  "the port's GID table changed while NCCL ran: a pinned NCCL_IB_GID_INDEX may now name another address",
	  "gid.env", "unset NCCL_IB_GID_INDEX    # NCCL >= 2.21 picks the GID per device itself\n" GID_FIX, NULL,
	  NULL, NULL },
	{ "log.nccl.gid_table_changed", SEVERITY_WARN, "GID table changed", NULL,
	  "NCCL transport/net_ib.cc (2.28), net_ib/common.cc (2.29 on)",
	  "the port's GID table changed while NCCL ran: a pinned NCCL_IB_GID_INDEX may now name another address",
	  "gid.env", "unset NCCL_IB_GID_INDEX    # NCCL >= 2.21 picks the GID per device itself\n" GID_FIX, NULL,
	  NULL, NULL },
	{ "log.nccl.ib_open_failed", SEVERITY_FAIL, "NET/IB : Unable to open device", NULL,
	  "NCCL transport/net_ib.cc / net_ib/init.cc, every version",
	  "libibverbs could not open the device: no access to /dev/infiniband/uverbs* (container, permissions)",
	  "rdma.uverbs,kernel.modules", "roce-doctor check --only rdma,kernel", NULL, NULL, NULL },
	{ "log.nccl.ib_async_error", SEVERITY_FAIL, "async",
	  "NET/IB : ([^ :]+):([0-9]+) [A-Za-z -]*async[^:]*: ?(.*(error|catastrophic|fatal).*)$",
	  "NCCL transport/net_ib.cc \"NET/IB : %s:%d Got async event : %s\" (2.20 to 2.22), \"... Got async error "
	  "event: %s\" and \"... async fatal event ...: %s\" (2.23 to 2.28.3), \"... Got non-fatal async event: %s(%d)\" "
	  "for a port error (2.28.7 on; net_ib/common.cc from 2.29); %s is ibv_event_type_str()",
	  "the HCA {1} port {2} reported an asynchronous error ({3}): a port that went down (port error: a link "
	  "flap, the cable, the switch port) or a fatal device or queue pair error; NCCL's connections over it fail",
	  "port.state",
	  "roce-doctor check --only port    # on this node: the port's state now\n"
	  "dmesg | grep -iE 'mlx5|link (is )?(up|down)'    # when the link dropped, and why", NULL, NULL, NULL },
	{ "log.nccl.ib_async_error", SEVERITY_FAIL, "Got async event",
	  "NET/IB : Got async event : (.*(error|catastrophic|fatal).*)$",
	  "NCCL transport/net_ib.cc \"NET/IB : Got async event : %s\" (2.4 to 2.19, before the device was named)",
	  "an HCA port reported an asynchronous error ({1}): a port that went down (port error: a link flap, the "
	  "cable, the switch port) or a fatal device error; NCCL's connections over it fail",
	  "port.state",
	  "roce-doctor check --only port    # on this node: the port's state now\n"
	  "dmesg | grep -iE 'mlx5|link (is )?(up|down)'    # when the link dropped, and why", NULL, NULL, NULL },
	{ "log.nccl.gdr_disabled", SEVERITY_WARN, "GPU Direct RDMA Disabled", "NET/IB ?: GPU Direct RDMA Disabled for "
	  "HCA [0-9]+ '([^']+)'",
	  "NCCL graph/topo.cc (transport/net.cc before 2.19)",
	  "RDMA to and from GPU memory is off on {1}: data is staged through host memory (nvidia_peermem not "
	  "loaded, no DMA-BUF, or the NIC too far from the GPU)",
	  "gpu.peermem,gpu.nic_distance,gpu.acs",
	  "roce-doctor check --only gpu\nsudo modprobe nvidia_peermem", NULL, NULL, NULL },
	{ "log.nccl.gdr_distance", SEVERITY_WARN, "GPU Direct RDMA Disabled for GPU",
	  "GPU Direct RDMA Disabled for GPU ([0-9a-fA-F]+) / HCA ([0-9a-fA-F]+) \\(distance ([0-9]+) > ([0-9]+)\\)",
	  "NCCL transport/net.cc (2.12-2.18), graph/paths.cc (2.19 on)",
	  "the HCA is too far from GPU {1} on PCIe (distance {3} > {4}): NCCL stages through host memory",
	  "gpu.nic_distance,gpu.acs,gpu.rails", "roce-doctor topo    # each GPU's nearest NIC: put it in NCCL_IB_HCA",
	  NULL, NULL, NULL },
	{ "log.nccl.socket_connect", SEVERITY_FAIL, "onnect to ", "[Cc]onnect to ([^ ]+) failed( with error| ?:) (.+)$",
	  "NCCL misc/socket.cc \"socketStartConnect: Connect to %s failed : %s\" (2.23), \"socketPollConnect to %s "
	  "failed with error %s\" (2.28), os/linux.cc \"ncclOsSocketPollConnect to ...\" (2.29)",
	  "NCCL's TCP connection to {1} failed ({3}): the peer is not listening yet, a firewall drops it, or "
	  "NCCL_SOCKET_IFNAME picked an interface the peer cannot reach",
	  "firewall.firewalld,firewall.rules,nccl.socket_ifname",
	  "roce-doctor check --only firewall,nccl.socket_ifname    # on both nodes", NULL, NULL, NULL },
	{ "log.nccl.socket_connect", SEVERITY_FAIL, "Connect to ",
	  "Connect to ([^ ]+) returned (-?[0-9]+\\([^)]*\\)) errno [0-9]+\\(([^)]*)\\)",
	  "NCCL misc/socket.cc \"socketPollConnect: Connect to %s returned %d(%s) errno %d(%s)\" (2.20 to 2.23)",
	  "NCCL's TCP connection to {1} failed ({3}): the peer is not listening yet, a firewall drops it, or "
	  "NCCL_SOCKET_IFNAME picked an interface the peer cannot reach",
	  "firewall.firewalld,firewall.rules,nccl.socket_ifname",
	  "roce-doctor check --only firewall,nccl.socket_ifname    # on both nodes", NULL, NULL, NULL },
	{ "log.nccl.socket_retries", SEVERITY_FAIL, "exceeded error retry count",
	  "connect to ([^ ]+) returned (.+), exceeded error retry count",
	  "NCCL misc/socket.cc \"%s: connect to %s returned %s, exceeded error retry count after %d attempts\" "
	  "(2.27 to 2.28; os/linux.cc from 2.29)",
	  "NCCL retried its TCP connection to {1} until it gave up ({2}): nothing listens there (the peer rank or "
	  "the bootstrap root exited or never started), a firewall rejects the port, or NCCL_SOCKET_IFNAME picks an "
	  "interface the peer cannot reach",
	  "firewall.firewalld,firewall.rules,nccl.socket_ifname",
	  "roce-doctor explain PEER.log    # did the peer rank fail first? then, on both nodes:\n"
	  "roce-doctor check --only firewall,nccl.socket_ifname", NULL, NULL, NULL },
	{ "log.nccl.socket_retries", SEVERITY_FAIL, "exceeded error retry count",
	  "connect returned (.+), exceeded error retry count",
	  "NCCL misc/socket.cc \"%s: connect returned %s, exceeded error retry count (%d)\" (2.24 to 2.26)",
	  "NCCL retried a TCP connection until it gave up ({1}): nothing listens there (the peer rank or the "
	  "bootstrap root exited or never started), a firewall rejects the port, or NCCL_SOCKET_IFNAME picks an "
	  "interface the peer cannot reach",
	  "firewall.firewalld,firewall.rules,nccl.socket_ifname",
	  "roce-doctor explain PEER.log    # did the peer rank fail first? then, on both nodes:\n"
	  "roce-doctor check --only firewall,nccl.socket_ifname", NULL, NULL, NULL },
	{ "log.nccl.peer_closed", SEVERITY_WARN, "Connection closed by remote peer", NULL,
	  "NCCL misc/socket.cc, every version",
	  "a peer closed its connection: another rank failed first; its log has the cause", "",
	  "grep -n 'NCCL WARN' the other ranks' logs    # then roce-doctor explain on the first failing one", NULL,
	  NULL, NULL },
	{ "log.nccl.duplicate_gpu", SEVERITY_FAIL, "Duplicate GPU detected", "Duplicate GPU detected : rank ([0-9]+) "
	  "and rank ([0-9]+) both on CUDA device ([0-9a-fA-F]+)",
	  "NCCL init.cc, every version",
	  "ranks {1} and {2} use the same GPU ({3}): each process must select its own device", "",
	  "torch.cuda.set_device(int(os.environ[\"LOCAL_RANK\"]))    # before init_process_group, in every rank",
	  NULL, NULL, NULL },
	{ "log.nccl.shm_full", SEVERITY_FAIL, "failed to extend ", "failed to extend ([^ ]+) to ([0-9]+) bytes",
	  "NCCL misc/shmutils.cc \"Error: failed to extend %s to %d bytes\" (2.12 to 2.15), \"%ld bytes\" (2.16 to "
	  "2.21), \"%ld bytes, error: %s (%d)\" (2.22 on; os/linux.cc from 2.30)",
	  "NCCL could not size its shared-memory file {1} to {2} bytes: /dev/shm is too small, most often a "
	  "container's default 64 MB", "",
	  "df -h /dev/shm    # in the job's container\n"
	  "docker run --shm-size=8g ...    # or --ipc=host; Kubernetes: an emptyDir with medium: Memory on /dev/shm",
	  NULL, NULL, NULL },
	{ "log.nccl.shm_full", SEVERITY_FAIL, "posix_fallocate", "Call to posix_fallocate failed ?: (.+)$",
	  "NCCL include/checks.h SYSCHECK \"Call to %s failed : %s\" around posix_fallocate in the shm transport "
	  "(2.4 to 2.11)",
	  "NCCL could not allocate its shared-memory file ({1}): /dev/shm is too small, most often a container's "
	  "default 64 MB", "",
	  "df -h /dev/shm    # in the job's container\n"
	  "docker run --shm-size=8g ...    # or --ipc=host; Kubernetes: an emptyDir with medium: Memory on /dev/shm",
	  NULL, NULL, NULL },
	{ "log.nccl.version_mismatch", SEVERITY_FAIL, "ismatch", "(Mismatched NCCL version detected|NCCL version "
	  "mismatch with remote peer)",
	  "NCCL init.cc (every version), ras/ras.cc (2.24 on)",
	  "the ranks loaded different NCCL versions", "",
	  "roce-doctor nccl    # on every node: which NCCL a job loads, then roce-doctor compare on their snapshots",
	  NULL, NULL, NULL },
	{ "log.torch.master_unresolved", SEVERITY_FAIL, "cannot be retrieved (gai error",
	  "network addresses of \\(([^,]+), ([0-9]+)\\) cannot be retrieved \\(gai error: (-?[0-9]+) - ([^)]*)\\)",
	  "PyTorch c10d socket.cpp (2.x; real: tests/logs/h100-nccl-2.28.9)",
	  "MASTER_ADDR {1} does not resolve on this node ({4}): the rank cannot find the rendezvous store", "",
	  "getent ahosts {1}    # on this node; set MASTER_ADDR to an address or a name every node resolves", NULL,
	  NULL, NULL },
	{ "log.torch.store_timeout", SEVERITY_FAIL, "client socket has timed out",
	  "client socket has timed out after ([0-9]+)ms while trying to connect to \\(([^,]+), ([0-9]+)\\)",
	  "PyTorch c10d socket.cpp (2.2 on)",
	  "this rank could not reach the rendezvous store at {2}:{3} (MASTER_ADDR:MASTER_PORT): rank 0 is not "
	  "running there yet, the address is wrong, or a firewall drops the port",
	  "firewall.firewalld,firewall.rules",
	  "nc -zv {2} {3}    # from this node; on the master: roce-doctor check --only firewall", NULL, NULL, NULL },
	{ "log.torch.store_wait_clients", SEVERITY_FAIL, "waiting for clients",
	  "Timed out after ([0-9]+) seconds waiting for clients\\. ([0-9]+)/([0-9]+) clients joined",
	  "PyTorch c10d TCPStore (2.3 on)",
	  "rank 0 waited {1} s and only {2} of {3} ranks reached its store: the others did not start or cannot "
	  "reach MASTER_ADDR:MASTER_PORT", "firewall.firewalld,firewall.rules",
	  "roce-doctor check --only firewall    # on the master; from each other node: nc -zv MASTER_ADDR MASTER_PORT",
	  NULL, NULL, NULL },
	{ "log.torch.collective_timeout", SEVERITY_FAIL, "Watchdog caught collective operation timeout",
	  /* "[Rank N] " in the literal (1.13.1), or logPrefix() before it, "[PG ID 0 PG GUID 0(default_pg) Rank N] "
	   * (2.6.0): the rank is the last word of the bracket either way */
	  "Rank ([0-9]+)\\] Watchdog caught collective operation timeout: WorkNCCL\\(SeqNum=([0-9]+), "
	  "OpType=([A-Za-z_]+)",
	  "PyTorch ProcessGroupNCCL.cpp: \"[Rank %d] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=%d, "
	  "OpType=%s, ...)\" (1.13.1; logPrefix() + \"Watchdog caught ...\" in 2.6.0; real: tests/logs/gpu-2rank)",
	  "rank {1} waited in collective {2} ({3}) past the process group's timeout. With no NCCL error in any rank's "
	  "log, most often another rank never issued collective {2} (collectives in a different order or number on "
	  "some ranks: an application bug); else a rank hung or a link stalled",
	  REACH_CHECKS, COLLECTIVE_FIX, NULL, NULL, NULL },
	{ "log.torch.collective_timeout", SEVERITY_FAIL, "Watchdog caught collective operation timeout", NULL,
	  "PyTorch ProcessGroupNCCL.cpp (1.13 on)",
	  "a collective did not finish within the process group's timeout. With no NCCL error in any rank's log, "
	  "most often a rank never issued it (an application bug); else a rank hung or a link stalled",
	  REACH_CHECKS, COLLECTIVE_FIX, NULL, NULL, NULL },
	{ "log.torch.nccl_remote_error", SEVERITY_FAIL, "ncclRemoteError", NULL,
	  "NCCL/PyTorch error string ncclRemoteError (NCCL 2.13 on)",
	  "NCCL failed on a network error or because a remote rank exited: the first WARN in any rank's log is the "
	  "cause", REACH_CHECKS, REACH_FIX, NULL, NULL, NULL },
	{ "log.perftest.socket_init", SEVERITY_FAIL, "Unable to init the socket connection", NULL,
	  "perftest *_bw.c / *_lat.c, 4.x",
	  "perftest's TCP exchange (port 18515) failed: no server is listening, the address is wrong, or a firewall "
	  "drops it", "firewall.firewalld,firewall.rules",
	  "start the server side first (ib_write_bw -d DEV -x N), then: nc -zv SERVER 18515", NULL, NULL, NULL },
	{ "log.perftest.connect", SEVERITY_FAIL, "Couldn't connect to ", "Couldn't connect to ([^ :]+):([0-9]+)",
	  "perftest perftest_communication.c ethernet_client_connect, 4.x",
	  "perftest could not open TCP {1}:{2}: no server is listening there, or a firewall drops the port",
	  "firewall.firewalld,firewall.rules",
	  "nc -zv {1} {2}    # is the server (ib_write_bw without an address) running there?", NULL, NULL, NULL },
	/* perftest prints its results header once both sides' QPs are connected, and a row per size as each ends;
	 * with RoCE's packets dropped (udp 4791 filtered) it prints the header and hangs: rxe never reports retry
	 * exceeded (real: tests/logs/vm-pair-rxe/udp-*, perftest 4.5+0.17-1). A row of a later size, or another
	 * problem, ends the suspicion; a log cut before the run ended looks the same, which the message says. */
	{ "log.perftest.no_result", SEVERITY_FAIL, "#iterations", "^ *#bytes +#iterations +(BW peak|t_min)",
	  "perftest perftest_parameters.c print_report_bw / print_report_lat header (RESULT_LINE, RESULT_FMT*), 4.x",
	  "perftest connected both sides over TCP, printed its results header and then no result: no RDMA completion "
	  "came back (RoCE's udp 4791 dropped on either node, a GID index or route that does not reach the other "
	  "GID, a path MTU larger than a link; Soft-RoCE never says retry exceeded, a NIC says it after a few "
	  "seconds); or the log was cut before the run ended",
	  REACH_CHECKS,
	  "nft list ruleset | grep -n 4791    # on both nodes: a drop or reject of udp 4791?\n" REACH_FIX,
	  NULL, NULL, "^ *[0-9]+ +[0-9]+ +[-0-9.]+" },
	/* Printed by both sides, before any QP is connected; on rxe a -x past the table's end reads as an empty
	 * GID and says the same (real: tests/logs/vm-pair-rxe, perftest 4.5+0.17-1) */
	{ "log.perftest.gid_incompatible", SEVERITY_FAIL, "Incompatibility issue with GID types", NULL,
	  "perftest *_bw.c / *_lat.c after ctx_check_gid_compatibility (perftest_communication.c): \"Found "
	  "Incompatibility issue with GID types.\" then \"Please Try to use a different IP version.\", 4.x",
	  "the two sides' GIDs are of different kinds: one -x names an IPv4 GID (::ffff:a.b.c.d), the other an "
	  "IPv6 one (often the link-local fe80:: GID at index 0) or an index with no GID at all",
	  "gid.rocev2",
	  "roce-doctor gid --suggest    # on both nodes: the RoCE v2 IPv4 GID index of the port\n"
	  "ib_write_bw -d DEV -x N      # (or the test that failed) that index on each side, server and client", NULL, NULL, NULL },
	{ "log.perftest.modify_qp_rtr", SEVERITY_FAIL, "Failed to modify QP", "Failed to modify QP( [0-9]+)? to RTR",
	  "perftest perftest_resources.c ctx_modify_qp_to_rtr, 4.x",
	  "the queue pair could not move to RTR: the GID index (-x) is not a valid RoCE GID on this port, or the "
	  "remote GID is unreachable", "gid.rocev2,gid.env,port.state",
	  "roce-doctor gid --suggest    # then ib_write_bw -x N with that index on both sides", NULL, NULL, NULL },
	/* The side that did not fail first: its peer exited (memlock, device, GID) and closed the TCP exchange.
	 * "ethernet_read_keys: Couldn't read remote address" (perftest_communication.c), then " Unable to read
	 * from socket/rdma_cm" (client) or "... read to ..." (server), then this (real: tests/logs/vm-pair-rxe,
	 * perftest 4.5+0.17-1) */
	{ "log.perftest.exchange_failed", SEVERITY_FAIL, "Couldn't read remote address", NULL,
	  "perftest perftest_communication.c ethernet_read_keys, 4.x (real: tests/logs/vm-pair-rxe)",
	  "the other side closed perftest's TCP exchange before sending its QP data: it failed first (look at its "
	  "own output: memlock, device or GID index) or was killed",
	  "", "roce-doctor explain OTHER-SIDE.log    # the other side's perftest output says why it stopped", NULL,
	  NULL, NULL },
	{ "log.perftest.exchange_failed", SEVERITY_FAIL, "Failed to exchange data between server and clients", NULL,
	  "perftest *_bw.c / *_lat.c after ctx_hand_shake, 4.x (real: tests/logs/vm-pair-rxe)",
	  "the other side closed perftest's TCP exchange before sending its QP data: it failed first (look at its "
	  "own output: memlock, device or GID index) or was killed",
	  "", "roce-doctor explain OTHER-SIDE.log    # the other side's perftest output says why it stopped", NULL,
	  NULL, NULL },
	{ "log.perftest.create_qp", SEVERITY_FAIL, "reate QP", "(Unable to create QP|Couldn't create QP)",
	  "perftest perftest_resources.c create_reg_qp_main, 4.x",
	  "creating the queue pair failed: most often the memlock limit", MEMLOCK_CHECKS, MEMLOCK_FIX, NULL,
	  NULL, NULL },
	{ "log.perftest.alloc_mr", SEVERITY_FAIL, "Couldn't allocate MR", NULL,
	  "perftest perftest_resources.c create_single_mr, 4.x",
	  "registering the test buffer failed: the memlock limit is lower than the buffer", MEMLOCK_CHECKS,
	  MEMLOCK_FIX, NULL, NULL, NULL },
	{ "log.perftest.device_not_found", SEVERITY_FAIL, " not found", "IB device ([^ ]+) not found",
	  "perftest perftest_resources.c ctx_find_dev, 4.x",
	  "there is no RDMA device named {1} on this host", "rdma.devices",
	  "roce-doctor devices --brief    # the devices that exist: ib_write_bw -d DEV", NULL, NULL, NULL },
	{ "log.perftest.no_devices", SEVERITY_FAIL, "No IB devices found", NULL,
	  "perftest perftest_resources.c ctx_find_dev, 4.x; the same words from rdma-core's ibv_devinfo and "
	  "ibv_*_pingpong",
	  "libibverbs lists no RDMA device: no driver, no provider library, or no /dev/infiniband in a container",
	  "rdma.devices,rdma.uverbs,kernel.modules,verbs.provider", "roce-doctor check --only rdma,kernel,verbs", NULL,
	  NULL, NULL },
	{ "log.perftest.no_context", SEVERITY_FAIL, "Couldn't get context for the device", NULL,
	  "perftest *_bw.c / perftest_resources.c, 4.x",
	  "opening the device failed: no access to its /dev/infiniband/uverbs node", "rdma.uverbs",
	  "roce-doctor check --only rdma.uverbs", NULL, NULL, NULL },
	{ "log.perftest.completion_error", SEVERITY_FAIL, "Failed status", "Failed status[- ]([^(]*)\\(([0-9]+)\\)",
	  "perftest perftest_resources.h NOTIFY_COMP_ERROR_SEND/RECV, 4.x",
	  "a work request completed with status {wc:2}", "gid.env,port.state,firewall.rules",
	  "roce-doctor check --peer PEER", NULL, NULL, NULL },
	{ "log.roce_doctor.stall", SEVERITY_FAIL, "stalled", "(no completion for [0-9.]+ s) at ([0-9]+)-byte messages: the "
	  "transfer to ([^ ]+) stalled",
	  "roce-doctor bw/lat: src/proto/client.c (asserted in tests/vm/cases/bw_4_udp_dropped.case)",
	  "the RDMA transfer to {3} stopped ({1}) while TCP works: udp 4791 dropped by a firewall on either node, "
	  "a GID the peer cannot reach, or a path MTU larger than a link",
	  "firewall.rules,firewall.firewalld,gid.env,netdev.mtu,net.same_subnet", REACH_FIX, NULL, NULL, NULL },
	{ "log.roce_doctor.completion", SEVERITY_FAIL, "completion failed on QP", "completion failed on QP [0-9]+ at "
	  "[0-9]+-byte messages: ([^(]+) \\(status ([0-9]+)",
	  "roce-doctor bw/lat: src/proto/client.c (asserted in tests/vm/cases/bw_2_faults.case)",
	  "an RDMA work request failed: {1} (status {2}); the next line, \"what it usually means\", says why",
	  "gid.env,port.state,firewall.rules", REACH_FIX, NULL, NULL, NULL },
	{ "log.roce_doctor.no_device", SEVERITY_FAIL, "no RDMA device or netdev ",
	  "no RDMA device or netdev ([^ ]+) \\(devices: ?([^;)]*)",
	  "roce-doctor bw/lat/serve -d: src/core/port_selection.c (real: tests/logs/vm-pair-rxe)",
	  "-d {1} names neither an RDMA device nor a netdev of this host (its devices: {2})", "rdma.devices",
	  "roce-doctor devices --brief    # the devices that exist: -d DEV (or a netdev name)", NULL, NULL, NULL },
	{ "log.roce_doctor.serve_gone", SEVERITY_FAIL, "closed the control connection",
	  "the serve at ([^ ]+) closed the control connection",
	  "roce-doctor bw/lat: src/proto/client.c recv_failed (real: tests/logs/vm-pair-rxe, serve SIGKILLed)",
	  "the serve at {1} went away during the test: it was killed (SIGKILL, the OOM killer, a stopped unit) or "
	  "crashed; the last lines of its own output say how far it got", "",
	  "journalctl -n 50 _COMM=roce-doctor    # on the serve's node (or its terminal): how it ended\n"
	  "roce-doctor serve                     # start it again there, then rerun bw", NULL, NULL, NULL },
	{ "log.roce_doctor.connect", SEVERITY_FAIL, "cannot connect to ",
	  "cannot connect to ([^ ]+):([0-9]+): ([A-Za-z ]+)",
	  "roce-doctor bw/lat/check --peer: src/proto/channel.c (real: tests/logs/vm-pair-rxe, no serve)",
	  "no TCP control connection to the serve at {1}:{2} ({3}): no roce-doctor serve runs there, it listens on "
	  "another port, or a firewall rejects the port",
	  "firewall.rules,firewall.firewalld",
	  "roce-doctor serve    # on {1} first (the same -p on both sides when not 18516)\n"
	  "nc -zv {1} {2}    # from this node: does the port answer?", NULL, NULL, NULL },
	{ "log.roce_doctor.listen", SEVERITY_FAIL, "cannot listen on ",
	  "cannot listen on (.+) port ([0-9]+): ([A-Za-z ]+)",
	  "roce-doctor serve: src/proto/channel.c (real: tests/logs/vm-pair-rxe, a second serve on one port)",
	  "serve could not listen on {1} port {2} ({3}): another serve, or another program, holds the port", "",
	  "ss -ltnp 'sport = :{2}'    # which process holds it: stop it, or\n"
	  "roce-doctor serve -p N     # another port (and -p N on the clients)", NULL, NULL, NULL },
	/* Before refused: the serve's refusal quotes the serve's own registration failure, and bw prints the
	 * same without "refused" when its own limit is low (real: tests/logs/vm-pair-rxe) */
	{ "log.roce_doctor.memlock", SEVERITY_FAIL, "Cannot allocate memory (RLIMIT_MEMLOCK is ",
	  "(ibv_reg_mr of [0-9]+ KiB): Cannot allocate memory \\(RLIMIT_MEMLOCK is ([0-9]+ KiB)",
	  "roce-doctor bw/lat/serve: src/verbs/perf_setup.c register_buffer (the serve's through its refusal, "
	  "src/proto/server.c)",
	  "{1} failed: the memlock limit of the process that registers it is {2} (bw itself, or the serve whose "
	  "refusal quotes it)",
	  MEMLOCK_CHECKS, MEMLOCK_FIX, NULL, NULL, NULL },
	{ "log.roce_doctor.refused", SEVERITY_WARN, "refused the test", "the serve at ([^ ]+) refused the test: (.*)$",
	  "roce-doctor bw/lat: src/proto/client.c (asserted in tests/vm/cases/bw_2_faults.case)",
	  "the serve at {1} would not run this test: {2}", "",
	  "wait for the running test to end, or raise the serve's --max-qps / --max-mem / --max-seconds", NULL,
	  NULL, NULL },
	{ "log.roce_doctor.refused", SEVERITY_WARN, "this serve allows", "ended: (.*this serve allows .*)$",
	  "roce-doctor serve's log: src/proto/server.c (real: tests/logs/vm-pair-rxe, serve --max-mem 1)",
	  "the serve refused a client's test: {1}", "",
	  "roce-doctor serve --max-mem MiB --max-qps N    # raise the limit it names, or ask the client for less",
	  NULL, NULL, NULL },
	{ "log.verbs.memlock_low", SEVERITY_WARN, "RLIMIT_MEMLOCK is ", "RLIMIT_MEMLOCK is ([0-9]+) bytes",
	  "rdma-core libibverbs init.c check_memlock_limit, every version",
	  "the process's memlock limit is {1} bytes: registrations larger than that fail", MEMLOCK_CHECKS,
	  MEMLOCK_FIX, NULL, NULL, NULL },
	{ "log.verbs.no_provider", SEVERITY_WARN, "couldn't load driver", "couldn't load driver '([^']+)'",
	  "rdma-core libibverbs dynamic_driver.c, every version",
	  "libibverbs has no provider library {1} for a device: it will not be listed",
	  "verbs.provider,kernel.modules,rdma.devices",
	  "sudo apt-get install ibverbs-providers    # Debian/Ubuntu; rdma-core on RHEL", NULL, NULL, NULL },
#include "core/log/log_patterns_others.inc"
#include "core/log/log_patterns_jobs.inc"
};

const size_t log_pattern_count = sizeof(log_patterns) / sizeof(log_patterns[0]);
