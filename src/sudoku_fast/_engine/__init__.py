"""The engines: the 9x9 engine (+ ISA builds) and the general one, CPU dispatch, text I/O."""
