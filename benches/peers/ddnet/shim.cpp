// The comparison's bridge to DDNet's snapshot code: the few functions
// DDNet's snapshot.cpp links against from the rest of DDNet (assertions,
// logging, the UUID registry, the 0.7 type map), reduced to what building
// and diffing 0.6/DDNet snapshots needs, and a C interface for Rust.
// Written for gamefmt; compiled only when DDNET_SRC names a checkout.
#include <engine/shared/snapshot.h>
#include <engine/shared/uuid_manager.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

extern "C" [[noreturn]] void dbg_assert_imp(const char *filename, int line, const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	std::fprintf(stderr, "DDNet assertion at %s:%d: ", filename, line);
	std::vfprintf(stderr, fmt, args);
	std::fputc('\n', stderr);
	va_end(args);
	std::abort();
}

void dbg_msg(const char *, const char *, ...) {}

CUuidManager g_UuidManager;

// No extended types are registered: the benchmark and the corpus pairs go
// through the builder with net object types below 0x4000 only.
CUuid CUuidManager::GetUuid(int) const { return CUuid{}; }
int CUuidManager::LookupUuid(CUuid) const { return UUID_UNKNOWN; }

int Obj_SixToSeven(int Type) { return Type; }

extern "C" {

CSnapshotBuilder *ddnet_builder_new() { return new CSnapshotBuilder(); }

// pSizes in ints, as gamefmt's tables; DDNet keeps them in bytes.
CSnapshotDelta *ddnet_delta_new(const unsigned short *pSizes, int NumSizes)
{
	CSnapshotDelta *pDelta = new CSnapshotDelta();
	for(int i = 0; i < NumSizes && i < 64; i++)
		pDelta->SetStaticsize(i, pSizes[i] * sizeof(int));
	return pDelta;
}

// Builds a snapshot of NumItems items (types, ids, sizes in ints, data
// back to back) into pOut (64 KiB); its size in bytes, or -1 if an item
// did not fit.
int ddnet_build(CSnapshotBuilder *pBuilder, int NumItems, const int *pTypes, const int *pIds, const int *pSizes, const int *pData, void *pOut)
{
	pBuilder->Init();
	bool Ok = true;
	for(int i = 0; i < NumItems && Ok; i++)
	{
		Ok = pBuilder->NewItem(pTypes[i], pIds[i], pData, pSizes[i] * (int)sizeof(int));
		pData += pSizes[i];
	}
	int Size = pBuilder->Finish((CSnapshotBuffer *)pOut);
	return Ok ? Size : -1;
}

int ddnet_create_delta(CSnapshotDelta *pDelta, const void *pFrom, const void *pTo, void *pDst)
{
	return pDelta->CreateDelta((const CSnapshot *)pFrom, (const CSnapshot *)pTo, pDst);
}

int ddnet_unpack_delta(CSnapshotDelta *pDelta, const void *pFrom, void *pTo, const void *pSrc, int Size)
{
	return pDelta->UnpackDelta((const CSnapshot *)pFrom, (CSnapshotBuffer *)pTo, pSrc, Size);
}

// ddnet_build, then the delta from pFrom to the built snapshot into pDst:
// what a server does per client and tick. The delta's size in bytes.
int ddnet_build_delta(CSnapshotBuilder *pBuilder, CSnapshotDelta *pDelta, int NumItems, const int *pTypes, const int *pIds, const int *pSizes, const int *pData, const void *pFrom, void *pSnap, void *pDst)
{
	if(ddnet_build(pBuilder, NumItems, pTypes, pIds, pSizes, pData, pSnap) < 0)
		return -1;
	return pDelta->CreateDelta((const CSnapshot *)pFrom, (const CSnapshot *)pSnap, pDst);
}
}
