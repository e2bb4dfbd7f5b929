// SPDX-License-Identifier: GPL-2.0-only
/* The decoding tables. Each was copied from the source named above it, and tests/cli/log_decode_test.sh
 * checks it against the pinned copy of that source text (tests/logs/catalogue/decode/): a value, a name or
 * a string changed by hand, or a new one upstream, fails there. */
#include "core/log/log_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* rdma-core libibverbs/verbs.h enum ibv_wc_status and enum_strs.c ibv_wc_status_str() (v64.0); the
 * meanings are ours, for a RoCE fabric between GPU nodes */
const struct log_wc_status log_wc_statuses[] = {
	{ 0, "IBV_WC_SUCCESS", "success", NULL },
	{ 1, "IBV_WC_LOC_LEN_ERR", "local length error",
	  "a message did not fit the local receive buffer, or exceeded the inline limit" },
	{ 2, "IBV_WC_LOC_QP_OP_ERR", "local QP operation error",
	  "the local QP rejected the work request (inline data too large, a malformed request)" },
	{ 3, "IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error", "an RD transport error (unused by RoCE)" },
	{ 4, "IBV_WC_LOC_PROT_ERR", "local protection error",
	  "the local buffer is not covered by a valid memory registration: for GPU memory, GPUDirect RDMA "
	  "(nvidia_peermem or DMA-BUF) not working" },
	{ 5, "IBV_WC_WR_FLUSH_ERR", "Work Request Flushed Error",
	  "flushed: the QP was already in the error state after an earlier failure; the first error is the cause" },
	{ 6, "IBV_WC_MW_BIND_ERR", "memory management operation error", "a memory window bind failed" },
	{ 7, "IBV_WC_BAD_RESP_ERR", "bad response error",
	  "an unexpected response came back: the two QPs disagree on the connection (a stale peer QP)" },
	{ 8, "IBV_WC_LOC_ACCESS_ERR", "local access error",
	  "a local memory access was refused (the registration lacks the rights, or its memory went away)" },
	{ 9, "IBV_WC_REM_INV_REQ_ERR", "remote invalid request error",
	  "the peer found the request invalid: a message longer than its buffer, an operation its QP does not "
	  "allow, too many RDMA READs in flight" },
	{ 10, "IBV_WC_REM_ACCESS_ERR", "remote access error",
	  "the peer refused access to its memory: its rkey or buffer is no longer valid (the peer restarted or "
	  "freed it), or GPUDirect failed on the peer" },
	{ 11, "IBV_WC_REM_OP_ERR", "remote operation error",
	  "the peer could not carry out the operation (a local error on its side)" },
	{ 12, "IBV_WC_RETRY_EXC_ERR", "transport retry counter exceeded",
	  "the peer never acknowledged the packets: at start a GID the peer cannot reach (link-local fe80::, RoCE "
	  "v1, another subnet), udp 4791 dropped or a path MTU too large; mid-run the peer went away or a lossy "
	  "fabric dropped too much (PFC/ECN)" },
	{ 13, "IBV_WC_RNR_RETRY_EXC_ERR", "RNR retry counter exceeded",
	  "the receiver had no receive buffer posted for too long: the peer process stalled or stopped" },
	{ 14, "IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation error", "an RD transport error (unused by RoCE)" },
	{ 15, "IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request", "an RD transport error (unused by RoCE)" },
	{ 16, "IBV_WC_REM_ABORT_ERR", "aborted error", "the peer aborted the operation" },
	{ 17, "IBV_WC_INV_EECN_ERR", "invalid EE context number", "an RD transport error (unused by RoCE)" },
	{ 18, "IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state", "an RD transport error (unused by RoCE)" },
	{ 19, "IBV_WC_FATAL_ERR", "fatal error", "the device reported a fatal error: dmesg and the firmware" },
	{ 20, "IBV_WC_RESP_TIMEOUT_ERR", "response timeout error", "the response never came back in time" },
	{ 21, "IBV_WC_GENERAL_ERR", "general error",
	  "the provider reported an error it has no status for (mlx5: a syndrome it does not map): dmesg" },
	{ 22, "IBV_WC_TM_ERR", "TM error", "a tag matching error" },
	{ 23, "IBV_WC_TM_RNDV_INCOMPLETE", "TM software rendezvous", "a tag matching rendezvous left to software" },
};
const size_t log_wc_status_count = sizeof(log_wc_statuses) / sizeof(log_wc_statuses[0]);

/* rdma-core providers/mlx5/mlx5dv.h MLX5_CQE_SYNDROME_*, mapped by cq.c mlx5_handle_error_cqe(); UCX
 * src/uct/ib/mlx5/ib_mlx5_log.c uct_ib_mlx5_completion_with_err()'s words */
const struct log_mlx5_syndrome log_mlx5_syndromes[] = {
	{ 0x01, "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR", 1, "Local length error" },
	{ 0x02, "MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR", 2, "Local QP operation error" },
	{ 0x04, "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR", 4, "Local protection error" },
	{ 0x05, "MLX5_CQE_SYNDROME_WR_FLUSH_ERR", 5, "WR flushed because QP in error state" },
	{ 0x06, "MLX5_CQE_SYNDROME_MW_BIND_ERR", 6, "Memory window bind error" },
	{ 0x10, "MLX5_CQE_SYNDROME_BAD_RESP_ERR", 7, "Bad response" },
	{ 0x11, "MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR", 8, "Local access error" },
	{ 0x12, "MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR", 9, "Invalid request" },
	{ 0x13, "MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR", 10, "Remote access error" },
	{ 0x14, "MLX5_CQE_SYNDROME_REMOTE_OP_ERR", 11, "Remote operation error" },
	{ 0x15, "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR", 12, "Transport retry count exceeded" },
	{ 0x16, "MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR", 13, "Receive-no-ready retry count exceeded" },
	{ 0x22, "MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR", 16, "Remote side aborted" },
};
const size_t log_mlx5_syndrome_count = sizeof(log_mlx5_syndromes) / sizeof(log_mlx5_syndromes[0]);

/* The vendor syndromes the public sources name: rdma-core mlx5dv.h MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT,
 * UCX ib_mlx5.h UCT_IB_MLX5_CQE_VENDOR_SYND_ODP / _PSN. The others (NCCL's "vendor err 129" is 0x81, the
 * one most often seen with retry exceeded) are firmware-internal: no public source says what they mean. */
const struct log_mlx5_vendor log_mlx5_vendors[] = {
	{ 0x93, "MLX5_CQE_VENDOR_SYNDROME_ODP_PFAULT", "an on-demand paging page fault" },
	{ 0x99, "UCT_IB_MLX5_CQE_VENDOR_SYND_PSN", "a packet sequence number error" },
};
const size_t log_mlx5_vendor_count = sizeof(log_mlx5_vendors) / sizeof(log_mlx5_vendors[0]);

/* Linux asm-generic/errno-base.h and errno.h (x86_64 and aarch64 share them), glibc's strerror() */
const struct log_errno log_errnos[] = {
	{ 1, "EPERM", "Operation not permitted" },
	{ 2, "ENOENT", "No such file or directory" },
	{ 3, "ESRCH", "No such process" },
	{ 4, "EINTR", "Interrupted system call" },
	{ 5, "EIO", "Input/output error" },
	{ 6, "ENXIO", "No such device or address" },
	{ 7, "E2BIG", "Argument list too long" },
	{ 8, "ENOEXEC", "Exec format error" },
	{ 9, "EBADF", "Bad file descriptor" },
	{ 10, "ECHILD", "No child processes" },
	{ 11, "EAGAIN", "Resource temporarily unavailable" },
	{ 12, "ENOMEM", "Cannot allocate memory" },
	{ 13, "EACCES", "Permission denied" },
	{ 14, "EFAULT", "Bad address" },
	{ 15, "ENOTBLK", "Block device required" },
	{ 16, "EBUSY", "Device or resource busy" },
	{ 17, "EEXIST", "File exists" },
	{ 18, "EXDEV", "Invalid cross-device link" },
	{ 19, "ENODEV", "No such device" },
	{ 20, "ENOTDIR", "Not a directory" },
	{ 21, "EISDIR", "Is a directory" },
	{ 22, "EINVAL", "Invalid argument" },
	{ 23, "ENFILE", "Too many open files in system" },
	{ 24, "EMFILE", "Too many open files" },
	{ 25, "ENOTTY", "Inappropriate ioctl for device" },
	{ 26, "ETXTBSY", "Text file busy" },
	{ 27, "EFBIG", "File too large" },
	{ 28, "ENOSPC", "No space left on device" },
	{ 29, "ESPIPE", "Illegal seek" },
	{ 30, "EROFS", "Read-only file system" },
	{ 31, "EMLINK", "Too many links" },
	{ 32, "EPIPE", "Broken pipe" },
	{ 33, "EDOM", "Numerical argument out of domain" },
	{ 34, "ERANGE", "Numerical result out of range" },
	{ 35, "EDEADLK", "Resource deadlock avoided" },
	{ 36, "ENAMETOOLONG", "File name too long" },
	{ 37, "ENOLCK", "No locks available" },
	{ 38, "ENOSYS", "Function not implemented" },
	{ 39, "ENOTEMPTY", "Directory not empty" },
	{ 40, "ELOOP", "Too many levels of symbolic links" },
	{ 42, "ENOMSG", "No message of desired type" },
	{ 43, "EIDRM", "Identifier removed" },
	{ 44, "ECHRNG", "Channel number out of range" },
	{ 45, "EL2NSYNC", "Level 2 not synchronized" },
	{ 46, "EL3HLT", "Level 3 halted" },
	{ 47, "EL3RST", "Level 3 reset" },
	{ 48, "ELNRNG", "Link number out of range" },
	{ 49, "EUNATCH", "Protocol driver not attached" },
	{ 50, "ENOCSI", "No CSI structure available" },
	{ 51, "EL2HLT", "Level 2 halted" },
	{ 52, "EBADE", "Invalid exchange" },
	{ 53, "EBADR", "Invalid request descriptor" },
	{ 54, "EXFULL", "Exchange full" },
	{ 55, "ENOANO", "No anode" },
	{ 56, "EBADRQC", "Invalid request code" },
	{ 57, "EBADSLT", "Invalid slot" },
	{ 59, "EBFONT", "Bad font file format" },
	{ 60, "ENOSTR", "Device not a stream" },
	{ 61, "ENODATA", "No data available" },
	{ 62, "ETIME", "Timer expired" },
	{ 63, "ENOSR", "Out of streams resources" },
	{ 64, "ENONET", "Machine is not on the network" },
	{ 65, "ENOPKG", "Package not installed" },
	{ 66, "EREMOTE", "Object is remote" },
	{ 67, "ENOLINK", "Link has been severed" },
	{ 68, "EADV", "Advertise error" },
	{ 69, "ESRMNT", "Srmount error" },
	{ 70, "ECOMM", "Communication error on send" },
	{ 71, "EPROTO", "Protocol error" },
	{ 72, "EMULTIHOP", "Multihop attempted" },
	{ 73, "EDOTDOT", "RFS specific error" },
	{ 74, "EBADMSG", "Bad message" },
	{ 75, "EOVERFLOW", "Value too large for defined data type" },
	{ 76, "ENOTUNIQ", "Name not unique on network" },
	{ 77, "EBADFD", "File descriptor in bad state" },
	{ 78, "EREMCHG", "Remote address changed" },
	{ 79, "ELIBACC", "Can not access a needed shared library" },
	{ 80, "ELIBBAD", "Accessing a corrupted shared library" },
	{ 81, "ELIBSCN", ".lib section in a.out corrupted" },
	{ 82, "ELIBMAX", "Attempting to link in too many shared libraries" },
	{ 83, "ELIBEXEC", "Cannot exec a shared library directly" },
	{ 84, "EILSEQ", "Invalid or incomplete multibyte or wide character" },
	{ 85, "ERESTART", "Interrupted system call should be restarted" },
	{ 86, "ESTRPIPE", "Streams pipe error" },
	{ 87, "EUSERS", "Too many users" },
	{ 88, "ENOTSOCK", "Socket operation on non-socket" },
	{ 89, "EDESTADDRREQ", "Destination address required" },
	{ 90, "EMSGSIZE", "Message too long" },
	{ 91, "EPROTOTYPE", "Protocol wrong type for socket" },
	{ 92, "ENOPROTOOPT", "Protocol not available" },
	{ 93, "EPROTONOSUPPORT", "Protocol not supported" },
	{ 94, "ESOCKTNOSUPPORT", "Socket type not supported" },
	{ 95, "EOPNOTSUPP", "Operation not supported" },
	{ 96, "EPFNOSUPPORT", "Protocol family not supported" },
	{ 97, "EAFNOSUPPORT", "Address family not supported by protocol" },
	{ 98, "EADDRINUSE", "Address already in use" },
	{ 99, "EADDRNOTAVAIL", "Cannot assign requested address" },
	{ 100, "ENETDOWN", "Network is down" },
	{ 101, "ENETUNREACH", "Network is unreachable" },
	{ 102, "ENETRESET", "Network dropped connection on reset" },
	{ 103, "ECONNABORTED", "Software caused connection abort" },
	{ 104, "ECONNRESET", "Connection reset by peer" },
	{ 105, "ENOBUFS", "No buffer space available" },
	{ 106, "EISCONN", "Transport endpoint is already connected" },
	{ 107, "ENOTCONN", "Transport endpoint is not connected" },
	{ 108, "ESHUTDOWN", "Cannot send after transport endpoint shutdown" },
	{ 109, "ETOOMANYREFS", "Too many references: cannot splice" },
	{ 110, "ETIMEDOUT", "Connection timed out" },
	{ 111, "ECONNREFUSED", "Connection refused" },
	{ 112, "EHOSTDOWN", "Host is down" },
	{ 113, "EHOSTUNREACH", "No route to host" },
	{ 114, "EALREADY", "Operation already in progress" },
	{ 115, "EINPROGRESS", "Operation now in progress" },
	{ 116, "ESTALE", "Stale file handle" },
	{ 117, "EUCLEAN", "Structure needs cleaning" },
	{ 118, "ENOTNAM", "Not a XENIX named type file" },
	{ 119, "ENAVAIL", "No XENIX semaphores available" },
	{ 120, "EISNAM", "Is a named type file" },
	{ 121, "EREMOTEIO", "Remote I/O error" },
	{ 122, "EDQUOT", "Disk quota exceeded" },
	{ 123, "ENOMEDIUM", "No medium found" },
	{ 124, "EMEDIUMTYPE", "Wrong medium type" },
	{ 125, "ECANCELED", "Operation canceled" },
	{ 126, "ENOKEY", "Required key not available" },
	{ 127, "EKEYEXPIRED", "Key has expired" },
	{ 128, "EKEYREVOKED", "Key has been revoked" },
	{ 129, "EKEYREJECTED", "Key was rejected by service" },
	{ 130, "EOWNERDEAD", "Owner died" },
	{ 131, "ENOTRECOVERABLE", "State not recoverable" },
	{ 132, "ERFKILL", "Operation not possible due to RF-kill" },
	{ 133, "EHWPOISON", "Memory page has hardware error" },
};
const size_t log_errno_count = sizeof(log_errnos) / sizeof(log_errnos[0]);

#define RUN_INFO " (run with NCCL_DEBUG=INFO for details)"
#define RUN_WARN " (run with NCCL_DEBUG=WARN for details)"

/* NVIDIA/nccl src/nccl.h.in ncclResult_t and init.cc ncclGetErrorString() (v2.3.5-5 to v2.30.7-1; the
 * strings gained their "(run with ...)" advice in 2.18); PyTorch torch/csrc/distributed/c10d/NCCLUtils.cpp
 * getNcclErrorDetailStr() (ncclSystemError adds "It can be also caused by unexpected exit of a remote peer."
 * when built against a NCCL without ncclRemoteError) */
const struct log_nccl_result log_nccl_results[] = {
	{ 0, "ncclSuccess", "2.0", "no error", "no error", NULL, NULL },
	{ 1, "ncclUnhandledCudaError", "2.0", "unhandled cuda error", "unhandled cuda error" RUN_INFO,
	  "ncclUnhandledCudaError: Call to CUDA function failed.",
	  "a CUDA call failed inside NCCL: the GPU, its driver or an earlier CUDA error of the application" },
	{ 2, "ncclSystemError", "2.0", "unhandled system error", "unhandled system error" RUN_INFO,
	  "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ",
	  "a system or library call failed (socket, ibverbs, shared memory) or, before NCCL 2.13, a remote rank "
	  "exited: the NCCL WARN lines before it say which" },
	{ 3, "ncclInternalError", "2.0", "internal error",
	  "internal error - please report this issue to the NCCL developers",
	  "ncclInternalError: Internal check failed.",
	  "an internal check failed; a network failure that NCCL did not classify often ends so: the NCCL WARN "
	  "lines before it say which" },
	{ 4, "ncclInvalidArgument", "2.0", "invalid argument", "invalid argument" RUN_WARN,
	  "ncclInvalidArgument: Invalid value for an argument.", "the application passed a wrong argument" },
	{ 5, "ncclInvalidUsage", "2.0", "invalid usage", "invalid usage" RUN_WARN,
	  "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.",
	  "the application used NCCL wrongly (two ranks on one GPU, a wrong rank count)" },
	{ 6, "ncclRemoteError", "v2.13.4-1", "remote process exited or there was a network error",
	  "remote process exited or there was a network error",
	  "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
	  "a network error or a remote rank that exited: the first failure in any rank's log is the cause" },
	{ 7, "ncclInProgress", "v2.14.3-1", "NCCL operation in progress", "NCCL operation in progress", NULL,
	  "a non-blocking operation has not finished" },
	{ 8, "ncclTimeout", "v2.30.3-1", NULL, "timeout", NULL, "an NCCL operation timed out" },
};
const size_t log_nccl_result_count = sizeof(log_nccl_results) / sizeof(log_nccl_results[0]);

/* value as a number (decimal, or 0x hex), or -1 when it is not one. */
static long number(const char *value)
{
	char *end;
	long n;

	if (!value[0] || value[0] == '-')
		return -1;
	n = strtol(value, &end, 0);
	return *end || n < 0 ? -1 : n;
}

static int decode_wc(char *out, size_t size, long n, const char *value)
{
	for (size_t i = 0; i < log_wc_status_count; i++) {
		const struct log_wc_status *s = &log_wc_statuses[i];

		if (s->value == n || strcmp(s->name, value) == 0)
			return snprintf(out, size, "%d, %s (\"%s\")%s%s", s->value, s->name, s->text,
					s->meaning ? ": " : "", s->meaning ? s->meaning : "");
	}
	return 0;
}

static int decode_synd(char *out, size_t size, long n, const char *value)
{
	(void)value;
	for (size_t i = 0; i < log_mlx5_syndrome_count; i++) {
		const struct log_mlx5_syndrome *s = &log_mlx5_syndromes[i];

		if (s->value == n)
			return snprintf(out, size, "0x%x, %s (UCX: \"%s\"; libibverbs status %d, %s)", s->value, s->name,
					s->ucx_text, s->wc_status, log_wc_statuses[s->wc_status].name);
	}
	return 0;
}

static int decode_vend(char *out, size_t size, long n, const char *value)
{
	(void)value;
	for (size_t i = 0; i < log_mlx5_vendor_count; i++)
		if (log_mlx5_vendors[i].value == n)
			return snprintf(out, size, "0x%x, %s: %s", (unsigned)n, log_mlx5_vendors[i].name,
					log_mlx5_vendors[i].text);
	return n >= 0 ? snprintf(out, size, "0x%lx, an mlx5 firmware syndrome no public source names", n) : 0;
}

static int decode_errno(char *out, size_t size, long n, const char *value)
{
	for (size_t i = 0; i < log_errno_count; i++)
		if (log_errnos[i].value == n || strcmp(log_errnos[i].name, value) == 0)
			return snprintf(out, size, "%d, %s (\"%s\")", log_errnos[i].value, log_errnos[i].name,
					log_errnos[i].text);
	return 0;
}

static int decode_nccl(char *out, size_t size, long n, const char *value)
{
	for (size_t i = 0; i < log_nccl_result_count; i++) {
		const struct log_nccl_result *r = &log_nccl_results[i];

		/* PyTorch quotes ncclGetErrorString(): a release's string names the code too */
		if (r->value == n || strcmp(r->name, value) == 0 || strcmp(r->text, value) == 0 ||
		    (r->text_old && strcmp(r->text_old, value) == 0))
			return snprintf(out, size, "%d, %s%s%s", r->value, r->name, r->meaning ? ": " : "",
					r->meaning ? r->meaning : "");
	}
	return 0;
}

size_t log_decode(char *out, size_t size, const char *kind, const char *value)
{
	static const struct {
		const char *kind;
		int (*decode)(char *, size_t, long, const char *);
	} kinds[] = {
		{ "wc", decode_wc }, { "synd", decode_synd }, { "vend", decode_vend }, { "errno", decode_errno },
		{ "nccl", decode_nccl },
	};
	long n = number(value);
	int w = 0;

	if (!size)
		return 0;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !w; i++)
		if (strcmp(kinds[i].kind, kind) == 0)
			w = kinds[i].decode(out, size, n, value);
	if (w <= 0)
		w = snprintf(out, size, "%s (unknown)", value);
	return (size_t)w < size ? (size_t)w : size - 1;
}
