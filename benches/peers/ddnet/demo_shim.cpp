// The comparison's bridge to DDNet's demo recorder (demo.cpp): the engine
// pieces demo.cpp links against, stubbed to the minimum a recording into
// memory needs (a storage whose files are memory buffers, no console, a
// fixed timestamp, Huffman through DDNet's own CHuffman), and a C
// interface for Rust (src/bin/demo_record.rs). Written for gamefmt;
// compiled only when DDNET_SRC names a checkout.
#include <base/hash.h>
#include <base/io.h>
#include <base/log.h>
#include <base/str.h>

#include <engine/shared/config.h>
#include <engine/shared/demo.h>
#include <engine/shared/huffman.h>
#include <engine/shared/network.h>
#include <engine/shared/snapshot.h>
#include <engine/storage.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

// ---- base: files in memory ----

struct CMemFile
{
	std::vector<unsigned char> m_Data;
	size_t m_Pos = 0;
};

unsigned io_write(IOHANDLE io, const void *buffer, unsigned size)
{
	CMemFile *pFile = (CMemFile *)io;
	size_t End = pFile->m_Pos + size;
	if(End > pFile->m_Data.size())
		pFile->m_Data.resize(End);
	std::memcpy(pFile->m_Data.data() + pFile->m_Pos, buffer, size);
	pFile->m_Pos = End;
	return size;
}

unsigned io_read(IOHANDLE io, void *buffer, unsigned size)
{
	CMemFile *pFile = (CMemFile *)io;
	size_t Left = pFile->m_Data.size() - pFile->m_Pos;
	size_t n = size < Left ? size : Left;
	std::memcpy(buffer, pFile->m_Data.data() + pFile->m_Pos, n);
	pFile->m_Pos += n;
	return (unsigned)n;
}

int io_seek(IOHANDLE io, int64_t offset, EIoSeekOrigin origin)
{
	CMemFile *pFile = (CMemFile *)io;
	int64_t Base = origin == EIoSeekOrigin::START ? 0 : origin == EIoSeekOrigin::CURRENT ? (int64_t)pFile->m_Pos : (int64_t)pFile->m_Data.size();
	pFile->m_Pos = (size_t)(Base + offset);
	return 0;
}

int io_skip(IOHANDLE io, int64_t size) { return io_seek(io, size, EIoSeekOrigin::CURRENT); }
int64_t io_tell(IOHANDLE io) { return (int64_t)((CMemFile *)io)->m_Pos; }
int64_t io_length(IOHANDLE io) { return (int64_t)((CMemFile *)io)->m_Data.size(); }
// The recording's file outlives the recorder's close (the shim owns it).
int io_close(IOHANDLE) { return 0; }

// ---- base: the rest demo.cpp names ----

static char gs_aTimestamp[20] = "";
void str_timestamp(char *buffer, int buffer_size) { str_copy(buffer, gs_aTimestamp, buffer_size); }
int str_utf8_tolower_codepoint(int code) { return code; }
const char *fs_filename(const char *path) { return path; }
void fs_split_file_extension(const char *filename, char *name, size_t name_size, char *extension, size_t extension_size)
{
	str_copy(name, filename, (int)name_size);
	if(extension)
		str_copy(extension, "", (int)extension_size);
}
void sha256_str(SHA256_DIGEST digest, char *str, size_t max_len)
{
	for(size_t i = 0; i < sizeof(digest.data) && 2 * i + 2 < max_len; i++)
		std::snprintf(str + 2 * i, 3, "%02x", digest.data[i]);
}
SHA256_DIGEST sha256(const void *, size_t) { return SHA256_DIGEST{}; }
void log_log_color(LEVEL, LOG_COLOR, const char *, const char *, ...) {}
void set_new_tick() {}
int64_t time_get() { return 0; }
bool CUuid::operator==(const CUuid &Other) const { return std::memcmp(m_aData, Other.m_aData, sizeof(m_aData)) == 0; }
CConfig g_Config;

// ---- engine: Huffman as CNetBase offers it ----

static CHuffman *Huffman()
{
	static CHuffman *s_pHuffman = [] {
		CHuffman *p = new CHuffman();
		p->Init();
		return p;
	}();
	return s_pHuffman;
}
int CNetBase::Compress(const void *pData, int DataSize, void *pOutput, int OutputSize) { return Huffman()->Compress(pData, DataSize, pOutput, OutputSize); }
int CNetBase::Decompress(const void *pData, int DataSize, void *pOutput, int OutputSize) { return Huffman()->Decompress(pData, DataSize, pOutput, OutputSize); }

// ---- engine: a storage whose one file is the recording ----

class CMemStorage : public IStorage
{
public:
	CMemFile m_Demo;
	CMemFile m_Map; // never read: maps are passed as data or not at all

	int NumPaths() const override { return 1; }
	void ListDirectory(int, const char *, FS_LISTDIR_CALLBACK, void *) override {}
	void ListDirectoryInfo(int, const char *, FS_LISTDIR_CALLBACK_FILEINFO, void *) override {}
	IOHANDLE OpenFile(const char *, int Flags, int, char *, int) override
	{
		if(Flags & IOFLAG_WRITE)
		{
			m_Demo = CMemFile();
			return &m_Demo;
		}
		m_Map.m_Pos = 0;
		return &m_Map;
	}
	bool FileExists(const char *, int) override { return false; }
	bool FolderExists(const char *, int) override { return false; }
	bool ReadFile(const char *, int, void **, unsigned *) override { return false; }
	char *ReadFileStr(const char *, int) override { return nullptr; }
	bool RetrieveTimes(const char *, int, time_t *, time_t *) override { return false; }
	bool CalculateHashes(const char *, int, SHA256_DIGEST *, unsigned *) override { return false; }
	bool FindFile(const char *, const char *, int, char *, int) override { return false; }
	size_t FindFiles(const char *, const char *, int, std::set<std::string> *) override { return 0; }
	bool RemoveFile(const char *, int) override { return true; }
	bool RemoveFolder(const char *, int) override { return true; }
	bool RenameFile(const char *, const char *, int) override { return true; }
	bool CreateFolder(const char *, int) override { return true; }
	void GetCompletePath(int, const char *pDir, char *pBuffer, unsigned BufferSize) override { str_copy(pBuffer, pDir, (int)BufferSize); }
	bool RemoveBinaryFile(const char *) override { return true; }
	bool RenameBinaryFile(const char *, const char *) override { return true; }
	const char *GetBinaryPath(const char *pFilename, char *pBuffer, unsigned BufferSize) override
	{
		str_copy(pBuffer, pFilename, (int)BufferSize);
		return pBuffer;
	}
	const char *GetBinaryPathAbsolute(const char *pFilename, char *pBuffer, unsigned BufferSize) override
	{
		return GetBinaryPath(pFilename, pBuffer, BufferSize);
	}
};

struct CDemoSession
{
	CMemStorage m_Storage;
	CSnapshotDelta m_Delta;
	CDemoRecorder *m_pRecorder = nullptr;
};

extern "C" {

// A session with the static item sizes (in ints, as gamefmt's tables).
CDemoSession *ddnet_demo_new(const unsigned short *pSizes, int NumSizes)
{
	CDemoSession *p = new CDemoSession();
	for(int i = 0; i < NumSizes && i < 64; i++)
		p->m_Delta.SetStaticsize(i, pSizes[i] * sizeof(int));
	return p;
}

// Starts a recording (DDNet writes version 6 only); pMapData null with
// MapSize 0 records without the map (DDNet's NoMapData). 0 on success.
int ddnet_demo_start(CDemoSession *p, const char *pNetVersion, const char *pMap, const unsigned char *pSha256, unsigned Crc, const char *pType, unsigned MapSize, const unsigned char *pMapData, const char *pTimestamp)
{
	str_copy(gs_aTimestamp, pTimestamp, sizeof(gs_aTimestamp));
	delete p->m_pRecorder;
	bool NoMapData = pMapData == nullptr;
	p->m_pRecorder = new CDemoRecorder(&p->m_Delta, NoMapData);
	SHA256_DIGEST Sha256;
	std::memcpy(Sha256.data, pSha256, sizeof(Sha256.data));
	static unsigned char s_Dummy = 0;
	return p->m_pRecorder->Start(&p->m_Storage, nullptr, "demo.demo", pNetVersion, pMap, Sha256, Crc, pType, MapSize, pMapData ? (unsigned char *)pMapData : &s_Dummy, nullptr, nullptr, nullptr);
}

void ddnet_demo_snapshot(CDemoSession *p, int Tick, const void *pData, int Size) { p->m_pRecorder->RecordSnapshot(Tick, pData, Size); }
void ddnet_demo_message(CDemoSession *p, const void *pData, int Size) { p->m_pRecorder->RecordMessage(pData, Size); }
void ddnet_demo_marker(CDemoSession *p, int Tick) { p->m_pRecorder->AddDemoMarker(Tick); }

// Stops (keeping the file): the header patched. The file's bytes stay
// with the session until the next start.
const unsigned char *ddnet_demo_stop(CDemoSession *p, size_t *pLen)
{
	p->m_pRecorder->Stop(IDemoRecorder::EStopMode::KEEP_FILE);
	*pLen = p->m_Storage.m_Demo.m_Data.size();
	return p->m_Storage.m_Demo.m_Data.data();
}

void ddnet_demo_free(CDemoSession *p)
{
	delete p->m_pRecorder;
	delete p;
}
}
