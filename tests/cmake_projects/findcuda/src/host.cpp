int host_count() { return 8; }
