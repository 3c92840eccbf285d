// Linux calls Glibc's Swift module does not export: epoll and eventfd (the HTTP event loops).
#include <sys/epoll.h>
#include <sys/eventfd.h>
