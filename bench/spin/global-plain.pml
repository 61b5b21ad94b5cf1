/*
 * global-plain for SPIN (npm run bench:spin builds it with -DCPUS=n -DADDS=n): CPUS processes
 * each add ADDS times to one shared word with a plain load and a plain store, nr_files++ as two
 * steps another CPU can come between, as the lab's global-plain runs it. The loop counter and
 * the loaded value are each process's own, so partial-order reduction may merge their updates.
 */
byte nr = 0;

active [CPUS] proctype cpu() {
  byte i = 0;
  byte v;
  do
  :: i < ADDS -> v = nr; nr = v + 1; i++
  :: else -> break
  od
}
