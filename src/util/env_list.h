// SPDX-License-Identifier: GPL-2.0-only
/* A variable of an environment given as a NULL-terminated "NAME=value" array (a job's, a launcher's, a captured
 * /proc/PID/environ): the commands judge other processes' environments, not only their own getenv(). */
#ifndef ROCE_DOCTOR_ENV_LIST_H
#define ROCE_DOCTOR_ENV_LIST_H

/* The value of name in envp (NULL: an empty environment), or NULL when it is not set. */
const char *env_list_get(char *const *envp, const char *name);

#endif
