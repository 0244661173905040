#include "kerchunk/refs/source_record.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <ctime>
#include <fstream>

#include "kerchunk/json/json_value.h"

namespace kerchunk {
namespace {

// How `kerchunk pack` output starts (docs/packed-format.md).
constexpr std::string_view kPackedStart = "{\"format\":\"kerchunk-packed\"";

// The record member is at most this large (about 100 bytes per file: ten million files).
constexpr uint64_t kMaxRecordBytes = uint64_t{1} << 30;

// Reads the object that starts at `in`'s position (its '{' already consumed into `text`) up to
// its closing brace, minding strings.
Status ReadObject(std::istream& in, std::string& text) {
  int depth = 1;
  bool in_string = false, escaped = false;
  char c;
  while (depth > 0 && in.get(c)) {
    text.push_back(c);
    if (text.size() > kMaxRecordBytes) return InvalidArgumentError("record too large");
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  if (depth > 0) return InvalidArgumentError("record not closed");
  return OkStatus();
}

// "metadata_xxh3" is 16 hex digits: a JSON number would lose bits above 2^53 in readers that
// take numbers as doubles (Python's json does not, JavaScript's does).
Result<uint64_t> ParseHash(const json::Value& hash) {
  const std::string* text = hash.is_string() ? &hash.as_string() : nullptr;
  if (!text || text->size() != 16 ||
      text->find_first_not_of("0123456789abcdef") != std::string::npos) {
    return InvalidArgumentError("\"metadata_xxh3\" must be 16 lowercase hex digits, got {}",
                                hash.Dump());
  }
  return std::stoull(*text, nullptr, 16);
}

Result<std::vector<SourceFileRecord>> ParseRecord(std::string_view text) {
  KERCHUNK_ASSIGN_OR_RETURN(json::Value record, json::Value::Parse(text));
  const json::Value* files = record.Find("files");
  if (!files || !files->is_array()) return InvalidArgumentError("expected a \"files\" list");
  std::vector<SourceFileRecord> out;
  for (const json::Value& f : files->as_array()) {
    const json::Value* url = f.Find("url");
    const json::Value* size = f.Find("size");
    const json::Value* mtime = f.Find("mtime_ns");
    if (!url || !url->is_string() || !size || size->type() == json::Value::Type::kDouble ||
        !size->is_number() || !mtime || mtime->type() == json::Value::Type::kDouble ||
        !mtime->is_number()) {
      return InvalidArgumentError("expected {{\"url\", \"size\", \"mtime_ns\"}}, got {}", f.Dump());
    }
    SourceFileRecord r{url->as_string(), size->as_uint(), mtime->as_int(), std::nullopt};
    if (const json::Value* hash = f.Find("metadata_xxh3")) {
      KERCHUNK_ASSIGN_OR_RETURN(r.metadata_xxh3, ParseHash(*hash));
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

Result<SourceFileRecord> RecordSourceFile(std::string url, const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return IoError("{}: cannot stat the file", path);
  SourceFileRecord r;
  r.url = std::move(url);
  r.size = static_cast<uint64_t>(st.st_size);
  r.mtime_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  return r;
}

std::string SourceRecordMember(const std::vector<SourceFileRecord>& files) {
  std::string out = fmt::format("\"{}\":{{\"files\":[", kSourceRecordKey);
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out += ",\n";
    out += "{\"url\":";
    json::AppendString(out, files[i].url);
    out += fmt::format(",\"size\":{},\"mtime_ns\":{}", files[i].size, files[i].mtime_ns);
    if (files[i].metadata_xxh3)
      out += fmt::format(",\"metadata_xxh3\":\"{:016x}\"", *files[i].metadata_xxh3);
    out += '}';
  }
  return out + "]}";
}

Result<std::optional<std::vector<SourceFileRecord>>> ReadSourceRecord(const std::string& path) {
  using Record = std::optional<std::vector<SourceFileRecord>>;
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("{}: cannot open", path);
  const std::string prefix = fmt::format("{{\"{}\":{{", kSourceRecordKey);
  std::string head(prefix.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  Result<std::vector<SourceFileRecord>> files = std::vector<SourceFileRecord>();
  if (in && head == prefix) {
    std::string text = "{";
    Status read = ReadObject(in, text);
    files = read.ok() ? ParseRecord(text) : Result<std::vector<SourceFileRecord>>(read);
  } else if (in && kPackedStart.starts_with(head)) {
    std::string text = head;
    text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return SourceRecordOfPackedText(text, path);
  } else {
    return Record();
  }
  if (!files.ok()) {
    return InvalidArgumentError("{}: \"{}\": {}", path, kSourceRecordKey, files.status().message());
  }
  return Record(*std::move(files));
}

Result<std::optional<std::vector<SourceFileRecord>>> SourceRecordOfPackedText(
    std::string_view text, const std::string& path) {
  using Record = std::optional<std::vector<SourceFileRecord>>;
  // Only a file that holds the member is parsed (the DOM of a large packed file is not free).
  if (!text.starts_with(kPackedStart) || text.find(kSourceRecordKey) == std::string::npos) {
    return Record();
  }
  KERCHUNK_ASSIGN_OR_RETURN(json::Value document,
                            json::Value::Parse(text).Annotate(path + ": packed file"));
  const json::Value* member = document.Find(kSourceRecordKey);
  if (!member) return Record();
  Result<std::vector<SourceFileRecord>> files = ParseRecord(member->Dump());
  if (!files.ok()) {
    return InvalidArgumentError("{}: \"{}\": {}", path, kSourceRecordKey, files.status().message());
  }
  return Record(*std::move(files));
}

void AppendSourceRecord(const std::vector<SourceFileRecord>& files, std::string& text) {
  const size_t close = text.find_last_of('}');
  if (files.empty() || close == std::string::npos) return;
  text.insert(close, ",\n" + SourceRecordMember(files) + "\n");
}

void PrependSourceRecord(const std::vector<SourceFileRecord>& files, std::string& text) {
  if (files.empty() || !text.starts_with('{')) return;
  text.insert(1, SourceRecordMember(files) + ",\n");
}

std::string FormatMtime(int64_t mtime_ns) {
  std::time_t seconds = static_cast<std::time_t>(mtime_ns / 1'000'000'000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:09}Z", date, mtime_ns % 1'000'000'000);
}

}  // namespace kerchunk
