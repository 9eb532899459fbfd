// /metrics stays available while clients hold connections open without sending a request
// (issue 22: one idle connection used to block every scrape for civetweb's 30 s).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "metrics/metrics_exposer.h"

namespace fcswitch::metrics {
namespace {

int connect_to(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  return fd;
}

// A whole HTTP/1.0 exchange: the server closes the connection after the response.
std::string scrape(int port) {
  const int fd = connect_to(port);
  if (fd < 0) return {};
  // A blocked exposer makes the scrape come back empty after 10 s, not hang the test.
  const timeval wait{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
  const std::string request = "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
  std::string response;
  if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buffer[4096];
    for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) response.append(buffer, n);
  }
  close(fd);
  return response;
}

TEST(MetricsExposer, ScrapesWhileIdleConnectionsAreHeldOpen) {
  MetricsExposer exposer("127.0.0.1:0", std::vector<NamedSwitch>{});
  ASSERT_GT(exposer.port(), 0);
  std::vector<int> idle;
  for (int i = 0; i < 4; ++i) {
    idle.push_back(connect_to(exposer.port()));
    ASSERT_GE(idle.back(), 0);
  }
  const auto start = std::chrono::steady_clock::now();
  const std::string response = scrape(exposer.port());
  const auto took = std::chrono::steady_clock::now() - start;
  for (int fd : idle) close(fd);
  EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  // The failure this guards against is a 30 s wait; a slow machine takes milliseconds.
  EXPECT_LT(took, std::chrono::seconds(5));
}

// More idle clients than serving threads: each is dropped after the request timeout, and the
// scrape behind them is served then.
TEST(MetricsExposer, IdleClientsAreDroppedAfterTheRequestTimeout) {
  MetricsExposer exposer("127.0.0.1:0", std::vector<NamedSwitch>{});
  std::vector<int> idle;
  for (int i = 0; i < MetricsExposer::kServingThreads + 4; ++i)
    idle.push_back(connect_to(exposer.port()));
  const std::string response = scrape(exposer.port());
  EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  // Civetweb closed the idle ones: a read sees end of file (or a reset), not a hang.
  char byte;
  for (int fd : idle) {
    EXPECT_LE(read(fd, &byte, 1), 0);
    close(fd);
  }
}

// 16 clients that connect, send nothing, and reconnect as soon as they are dropped, beside 20
// scrapers: every scrape is answered without waiting out an idle connection's request timeout
// (with 8 serving threads, the idle ones held them all and each scrape took 1-2 s).
TEST(MetricsExposer, ReconnectingIdleClientsDoNotHoldUpScrapes) {
  MetricsExposer exposer("127.0.0.1:0", std::vector<NamedSwitch>{});
  const int port = exposer.port();
  std::atomic<bool> stop{false};
  std::atomic<int> idle_connections{0};
  std::vector<std::thread> idle;
  for (int i = 0; i < 16; ++i) {
    idle.emplace_back([&] {
      while (!stop.load()) {
        const int fd = connect_to(port);
        if (fd < 0) continue;
        idle_connections.fetch_add(1);
        // Held until the server drops it (or for at most 2 s, so that the test ends).
        const timeval wait{2, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
        char byte;
        [[maybe_unused]] const ssize_t n = read(fd, &byte, 1);
        close(fd);
      }
    });
  }
  // Every idle client connected (once, at least) before the scrapes start.
  while (idle_connections.load() < 16) std::this_thread::yield();
  std::vector<std::chrono::steady_clock::duration> took(20);
  std::vector<std::string> responses(20);
  std::vector<std::thread> scrapers;
  for (int i = 0; i < 20; ++i) {
    scrapers.emplace_back([&, i] {
      const auto start = std::chrono::steady_clock::now();
      responses[i] = scrape(port);
      took[i] = std::chrono::steady_clock::now() - start;
    });
  }
  for (auto& t : scrapers) t.join();
  stop.store(true);
  for (auto& t : idle) t.join();
  for (const std::string& response : responses)
    EXPECT_NE(response.find("200 OK"), std::string::npos) << response;
  // A scrape that waited for an idle connection's thread waited out its request timeout; one
  // that did not takes milliseconds.
  EXPECT_LT(*std::max_element(took.begin(), took.end()),
            std::chrono::milliseconds(MetricsExposer::kRequestTimeoutMs));
}

}  // namespace
}  // namespace fcswitch::metrics
