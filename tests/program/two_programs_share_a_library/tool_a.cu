// expected-no-diagnostics
// One of two programs sharing common.cu: sets the tables up and tears them down.
void setup_tables(unsigned long n);
void teardown_tables();

int main() {
  setup_tables(1 << 20);
  teardown_tables();
  return 0;
}
