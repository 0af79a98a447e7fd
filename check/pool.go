package check

func (r *run) pool() {}
