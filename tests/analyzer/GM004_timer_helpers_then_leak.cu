// A create helper that allocates through `T **` and a start helper that tests and uses the
// object through `T **` without writing the caller's pointer (the SDK timer helpers' shape): the
// start helper leaves ownership with the caller, so the early return leaks the timer.
#include <cstddef>

class Stopwatch {
public:
  virtual ~Stopwatch() {}
  virtual void start() = 0;
};

class LinuxStopwatch : public Stopwatch {
public:
  LinuxStopwatch() : running_(false) {}
  void start() override { running_ = true; }

private:
  bool running_;
};

inline bool create_timer(Stopwatch **timer) {
  *timer = reinterpret_cast<Stopwatch *>(new LinuxStopwatch());
  return (*timer != NULL) ? true : false;
}

inline bool start_timer(Stopwatch **timer) {
  if (*timer)
    (*timer)->start();
  return true;
}

int main(int argc, char **) {
  Stopwatch *timer = NULL;
  create_timer(&timer); // expected-warning {{'timer' (heap object from create_timer) is not freed on every path}}
  start_timer(&timer);
  if (argc > 1)
    return 1; // expected-note {{this return leaves without freeing 'timer'}}
  delete timer;
  return 0;
}
