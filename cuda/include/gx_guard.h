/*
 * gx_guard.h - the exception boundary of the devices' C API (gx_api.h).
 * Internal to cuda/ (host code only, C++).
 *
 * Every extern "C" function of cuda/ runs its body through one guard, so
 * that no C++ exception reaches the service (a PostgreSQL process, which
 * would terminate): std::bad_alloc becomes GX_NO_MEMORY, any other
 * exception GX_INVALID, each with a message naming the function.  A void
 * function swallows the exception.  Usage:
 *
 *	extern "C" gx_status
 *	gx_something(..., char *err, size_t errlen)
 *	{
 *		GX_API_GUARD(err, errlen)
 *		{
 *			...
 *			return GX_OK;
 *		});
 *	}
 *
 * (GX_API_GUARD_VOID() { ... }); for void functions.)  The body is a
 * lambda: 'return' leaves the API function with its status.  The guard
 * clears err first, so a function that succeeds leaves an empty message
 * unless it writes a warning.
 */
#ifndef GX_GUARD_H
#define GX_GUARD_H

#include "gx_api.h"

#include <stdarg.h>
#include <stdio.h>

#include <exception>
#include <new>

/* printf into err (may be NULL / 0 long) */
static inline void
gx_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void
gx_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list		ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* run body, turning any exception into a status and a message */
template <class F>
static inline gx_status
gx_api_guard(char *err, size_t errlen, const char *func, F &&body) noexcept
{
	try
	{
		if (err && errlen)
			err[0] = '\0';
		return body();
	}
	catch (const std::bad_alloc &)
	{
		gx_errf(err, errlen, "%s: out of memory", func);
		return GX_NO_MEMORY;
	}
	catch (const std::exception &e)
	{
		gx_errf(err, errlen, "%s: %s", func, e.what());
		return GX_INVALID;
	}
	catch (...)
	{
		gx_errf(err, errlen, "%s: unexpected exception", func);
		return GX_INVALID;
	}
}

/* run body of a void API function; an exception is dropped */
template <class F>
static inline void
gx_api_guard_void(F &&body) noexcept
{
	try
	{
		body();
	}
	catch (...)
	{
	}
}

#define GX_API_GUARD(err, errlen) \
	return gx_api_guard((err), (errlen), __func__, [&]() -> gx_status
#define GX_API_GUARD_VOID() \
	gx_api_guard_void([&]() -> void

#endif							/* GX_GUARD_H */
