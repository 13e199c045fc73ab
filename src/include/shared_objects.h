/*
 * shared_objects.h - engine objects owned by the service, not by a session:
 * a fixed table in shared memory of device objects named by a key
 * (database, relation, relfilenode, kind, version) that any session's task
 * may name read-only (docs/engine.md section 2, "Shared objects").  The
 * first user of a prefix-tree index's device image (ptree_lookup.cpp).
 */
#ifndef GX_SHARED_OBJECTS_H
#define GX_SHARED_OBJECTS_H

#include "gpuext.h"

/*
 * A shared object's handle: this bit set, then the table slot's generation
 * and index as a session object's id (session objects' generations stay
 * below 2^19, so their handles never have it)
 */
#define GX_SHOBJ_BIT 0x80000000u
#define GX_MAX_SHARED_OBJECTS 256

typedef enum GxSharedState
{
	GX_SHOBJ_FREE = 0,
	GX_SHOBJ_WRITING,			/* reserved; its writer's OBJ_WRITE tasks fill it */
	GX_SHOBJ_READY,				/* named read-only by any session's tasks */
	GX_SHOBJ_DEAD				/* replaced or evicted: freed once unpinned */
} GxSharedState;

typedef enum GxSharedKind
{
	GX_SHOBJ_PTREE_IMAGE = 1,	/* a prefix-tree index's device image (gx_ptree.h) */
	GX_SHOBJ_SORTED_PROJ		/* a cached column's sorted projection (a range
								 * join's table: src/cache/projection.cpp) */
} GxSharedKind;

/* the key a shared object is named by */
typedef struct GxSharedKey
{
	Oid			dbid;
	Oid			relid;
	Oid			filenode;		/* the relation's relfilenode */
	int			kind;			/* GxSharedKind */
	int			attnum;			/* a sorted projection: its column; else 0 */
	uint64		version;		/* a ptree image: the index's change counter */
	uint64		check;			/* a hash of the contents: equal keys, equal bytes */
	uint64		rows;			/* not matched: the rows it was made of (views) */
} GxSharedKey;

/* what gx_shobj_list copies of an entry */
typedef struct GxSharedInfo
{
	GxSharedKey key;
	int			device;
	uint64		bytes;
	int			state;			/* GxSharedState */
	uint64		uses;			/* calls that held it */
} GxSharedInfo;

Size		gx_shobj_shmem_size(void);
void		gx_shobj_shmem_request(void);
void		gx_shobj_shmem_init(void);

/* backend side */
uint32		gx_shobj_acquire(const GxSharedKey *key, int device, uint64 bytes,
							 uint32 session, bool *write);
void		gx_shobj_ready(uint32 handle);
void		gx_shobj_release(uint32 handle);
void		gx_shobj_count_session_copy(uint64 bytes);
int			gx_shobj_list(int kind, Oid dbid, GxSharedInfo *out, int max);
void		gx_shobj_drop_rel(int kind, Oid dbid, Oid relid);

/* service side */
static inline bool
gx_shobj_is_handle(uint32 handle)
{
	return (handle & GX_SHOBJ_BIT) != 0;
}
void		gx_shobj_service_init(int nslots);
const char *gx_shobj_resolve(uint32 handle, const gx_chunk *c, int device,
							 int slot, int k, char **addr, uint64 *bytes,
							 char *err, size_t errlen, bool *oom);
void		gx_shobj_unpin_slot(int slot);
void		gx_shobj_reclaim(void);
void		gx_shobj_service_reset(void);

#endif							/* GX_SHARED_OBJECTS_H */
