#include "io/http_client.h"

#include <cctype>
#include <mutex>

#include "io/curl_api.h"

namespace kerchunk::io::internal {
namespace {

// libcurl's process-wide set-up, and the cache of open connections (and DNS answers) that
// every handle shares, so the second file on a host reuses the first one's connection.
struct SharedState {
  CURLSH* share = nullptr;
  std::mutex locks[CURL_LOCK_DATA_LAST];

  SharedState() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    share = curl_share_init();
    curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Lock);
    curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Unlock);
    curl_share_setopt(share, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<SharedState*>(user)->locks[data].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<SharedState*>(user)->locks[data].unlock();
  }
};

SharedState& Shared() {
  static SharedState* state = new SharedState();  // lives as long as the process
  return *state;
}

constexpr uint64_t kErrorPageBytes = 64 << 10;

struct Transfer {
  HttpResponse* response;
  uint64_t max_body;
  bool too_long = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  if (t->response->body.size() + n > t->max_body) {
    t->too_long = true;
    return 0;  // makes libcurl abort the transfer
  }
  t->response->body.append(data, n);
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string_view line(data, n);
  const size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n' || value.back() == ' '))
      value.remove_suffix(1);
    t->response->headers[name] = std::string(value);
  }
  return n;
}

bool IsTransient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
      return true;
    default:
      return false;
  }
}

}  // namespace

HttpClient::HttpClient(const SourceOptions& options) : handle_(nullptr) {
  SharedState& shared = Shared();
  CURL* curl = curl_easy_init();
  if (!curl) throw std::bad_alloc();
  curl_easy_setopt(curl, CURLOPT_SHARE, shared.share);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(options.connect_timeout_s));
  // A transfer slower than 1 byte/s for the stall time is abandoned: a server that stops
  // sending must not hang the scan.
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(options.stall_timeout_s));
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "kerchunk-cpp");
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
  handle_ = curl;
}

HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(handle_)); }

Result<HttpResponse> HttpClient::Perform(const std::string& method, const std::string& url,
                                         const std::vector<std::string>& headers, uint64_t max_body,
                                         bool& transient) {
  CURL* curl = static_cast<CURL*>(handle_);
  HttpResponse response;
  // Room for an error page on top of what was asked for; a success body longer than asked is
  // refused by the caller.
  Transfer transfer{&response, max_body + kErrorPageBytes};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOBODY, method == "HEAD" ? 1L : 0L);
  if (method != "HEAD") curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_slist* list = nullptr;
  for (const std::string& h : headers) list = curl_slist_append(list, h.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  const CURLcode code = curl_easy_perform(curl);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  curl_slist_free_all(list);
  transient = false;
  if (transfer.too_long) {
    return IoError("{}: the server sent more than the {} bytes asked for", url,
                   transfer.max_body - kErrorPageBytes);
  }
  if (code != CURLE_OK) {
    transient = IsTransient(code);
    return IoError("{}: {}", url, error[0] ? error : curl_easy_strerror(code));
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace kerchunk::io::internal
