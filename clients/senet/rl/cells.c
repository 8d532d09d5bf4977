/*
 * senet.rl.cells in C: the same engine as cells.py (its reference, which documents
 * the steps), built by senet.rl.native into the twin senet.rl._native.cells.
 *
 * A Cells holds the tensor's buffer for its life, the plan parsed into C structs,
 * and per step the copy of what it last wrote from. sync(state) runs the whole plan
 * without returning to the interpreter: read the field, compare with the copy (C
 * rich comparison, as Python's ==), write the changed cells, copy the value.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

enum {
    CUSTOM, NUMBER, LENGTH, COUNTS, VECTOR, ONE_HOT, OWNERS,
    ROW_NUMBERS, ROW_LENGTHS, ROW_COUNTS, ROW_VECTORS, ROW_SUMS,
    TABLE
};

typedef struct {
    int kind;
    PyObject *field; /* interned str */
    Py_ssize_t row;
    Py_ssize_t at;
    Py_ssize_t *ats;
    Py_ssize_t nats;
    Py_ssize_t width;
    double scale;
    Py_ssize_t *channels;
    Py_ssize_t nchannels;
    Py_ssize_t empty;
    PyObject *seen; /* the copy; NULL when unseen; for rows a list of copies */
    /* The last state type whose attribute lookup was checked for this field (by
       address and version tag, which a type changes whenever its attributes do),
       and whether an entry of the instance's dict is then the attribute. */
    PyTypeObject *checked;
    unsigned int checked_tag;
    int in_dict;
    /* Where the field's entry was in the last instance dict read (a position for
       PyDict_Next, first guessed 0; -1: not found as the field's own interned str).
       A state's dict keeps its entries in place, so the entry is read there, its
       key checked, without a lookup; any other dict finds another key there and
       looks it up. */
    Py_ssize_t hint;
} Step;

typedef struct {
    PyObject_HEAD
    Py_buffer view;
    int has_view;
    char *data;
    int single; /* floats (array('f')) rather than doubles (array('d')) */
    Py_ssize_t itemsize;
    Py_ssize_t size;
    Step *steps;
    Py_ssize_t nsteps;
} Cells;

static PyObject *Unseen; /* equal to nothing but itself */

static int is_rows(int kind) { return kind >= ROW_NUMBERS && kind <= ROW_SUMS; }

static Py_ssize_t *int_tuple(PyObject *seq, Py_ssize_t *n) {
    PyObject *fast = PySequence_Fast(seq, "a step's offsets and channels are tuples of ints");
    if (fast == NULL) return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    Py_ssize_t *out = PyMem_Calloc(*n ? *n : 1, sizeof(Py_ssize_t));
    if (out == NULL) { Py_DECREF(fast); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) { PyMem_Free(out); Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    return out;
}

static void clear_seen(Cells *self) {
    for (Py_ssize_t i = 0; i < self->nsteps; i++) {
        Step *step = &self->steps[i];
        Py_CLEAR(step->seen);
        if (is_rows(step->kind)) {
            step->seen = PyList_New(step->nats);
            if (step->seen == NULL) return;
            for (Py_ssize_t s = 0; s < step->nats; s++) {
                Py_INCREF(Unseen);
                PyList_SET_ITEM(step->seen, s, Unseen);
            }
        }
    }
}

static void free_steps(Cells *self) {
    for (Py_ssize_t i = 0; i < self->nsteps; i++) {
        Step *step = &self->steps[i];
        Py_XDECREF(step->field);
        Py_XDECREF(step->seen);
        PyMem_Free(step->ats);
        PyMem_Free(step->channels);
    }
    PyMem_Free(self->steps);
    self->steps = NULL;
    self->nsteps = 0;
}

static int check_span(Step *step, Py_ssize_t start, Py_ssize_t size) {
    Py_ssize_t span = (step->kind == NUMBER || step->kind == LENGTH || step->kind == ROW_NUMBERS
                       || step->kind == ROW_LENGTHS || step->kind == ROW_SUMS) ? 1 : step->width;
    if (start < 0 || span < 0 || start + span > size) {
        PyErr_Format(PyExc_ValueError, "step %R: cells %zd..%zd outside %zd", step->field, start,
                     start + span, size);
        return -1;
    }
    return 0;
}

static int parse_step(Step *step, PyObject *item, Py_ssize_t size) {
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 9) {
        PyErr_SetString(PyExc_TypeError, "a plan's steps are senet.rl.cells.Step tuples");
        return -1;
    }
    step->kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
    if (PyErr_Occurred()) return -1;
    if (step->kind < CUSTOM || step->kind > TABLE) {
        PyErr_Format(PyExc_ValueError, "no step kind %d", step->kind);
        return -1;
    }
    PyObject *field = PyTuple_GET_ITEM(item, 1);
    if (!PyUnicode_Check(field)) {
        PyErr_SetString(PyExc_TypeError, "a step's field is a str");
        return -1;
    }
    Py_INCREF(field);
    PyUnicode_InternInPlace(&field);
    step->field = field;
    step->row = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 2));
    step->at = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 3));
    if (PyErr_Occurred()) return -1;
    step->ats = int_tuple(PyTuple_GET_ITEM(item, 4), &step->nats);
    if (step->ats == NULL) return -1;
    step->width = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 5));
    step->scale = PyFloat_AsDouble(PyTuple_GET_ITEM(item, 6));
    if (PyErr_Occurred()) return -1;
    step->channels = int_tuple(PyTuple_GET_ITEM(item, 7), &step->nchannels);
    if (step->channels == NULL) return -1;
    step->empty = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 8));
    if (PyErr_Occurred()) return -1;
    if (step->kind == CUSTOM) return 0;
    if (is_rows(step->kind)) {
        for (Py_ssize_t s = 0; s < step->nats; s++)
            if (check_span(step, step->ats[s], size) < 0) return -1;
        return 0;
    }
    return check_span(step, step->at, size);
}

static int cells_init(Cells *self, PyObject *args, PyObject *kw) {
    PyObject *out, *plan;
    static char *names[] = {"out", "plan", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO", names, &out, &plan)) return -1;
    if (self->has_view) { PyBuffer_Release(&self->view); self->has_view = 0; }
    free_steps(self);
    if (PyObject_GetBuffer(out, &self->view, PyBUF_WRITABLE | PyBUF_FORMAT) < 0) return -1;
    self->has_view = 1;
    const char *format = self->view.format == NULL ? "" : self->view.format;
    if (strcmp(format, "d") != 0 && strcmp(format, "f") != 0) {
        PyErr_SetString(PyExc_TypeError,
                        "Cells writes an array of floats or doubles (array('f'), array('d'))");
        return -1;
    }
    self->single = format[0] == 'f';
    self->itemsize = self->single ? (Py_ssize_t)sizeof(float) : (Py_ssize_t)sizeof(double);
    self->data = (char *)self->view.buf;
    self->size = self->view.len / self->itemsize;
    PyObject *fast = PySequence_Fast(plan, "a plan is a sequence of steps");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    self->steps = PyMem_Calloc(n ? n : 1, sizeof(Step));
    if (self->steps == NULL) { Py_DECREF(fast); PyErr_NoMemory(); return -1; }
    self->nsteps = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (parse_step(&self->steps[i], PySequence_Fast_GET_ITEM(fast, i), self->size) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    clear_seen(self);
    return PyErr_Occurred() ? -1 : 0;
}

static void cells_dealloc(Cells *self) {
    free_steps(self);
    if (self->has_view) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A copy of value that its owner's later changes leave alone (lists deeply). */
static PyObject *snapshot(PyObject *value) {
    if (PyList_CheckExact(value)) {
        Py_ssize_t n = PyList_GET_SIZE(value);
        PyObject *copy = PyList_New(n);
        if (copy == NULL) return NULL;
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *item = snapshot(PyList_GET_ITEM(value, i));
            if (item == NULL) { Py_DECREF(copy); return NULL; }
            PyList_SET_ITEM(copy, i, item);
        }
        return copy;
    }
    if (PyDict_CheckExact(value)) return PyDict_Copy(value);
    Py_INCREF(value);
    return value;
}

static int as_double(PyObject *value, double *x) {
    if (value == Py_None) { *x = 0.0; return 0; }
    /* An int's double directly: PyFloat_AsDouble would make a float object of it. */
    *x = PyLong_CheckExact(value) ? PyLong_AsDouble(value) : PyFloat_AsDouble(value);
    return (*x == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int as_index(PyObject *value, Py_ssize_t *index) {
    *index = PyLong_AsSsize_t(value);
    return (*index == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* Where value lands: its channel, or itself without channels. */
static int channel(Step *step, Py_ssize_t value, Py_ssize_t *index) {
    if (step->nchannels == 0) { *index = value; return 0; }
    if (value < 0 || value >= step->nchannels) {
        PyErr_Format(PyExc_IndexError, "step %R: no channel for %zd", step->field, value);
        return -1;
    }
    *index = step->channels[value];
    return 0;
}

/* The cells as Python writes them into the array: a double stored as a float is
   rounded once ((float)x, as array('f') does), and an addition is made in doubles
   and then stored, as out[i] += x is. */
static inline void set_cell(Cells *self, Py_ssize_t i, double x) {
    if (self->single) ((float *)self->data)[i] = (float)x;
    else ((double *)self->data)[i] = x;
}

static inline void add_cell(Cells *self, Py_ssize_t i, double x) {
    if (self->single) {
        float *cell = (float *)self->data + i;
        *cell = (float)((double)*cell + x);
    } else {
        ((double *)self->data)[i] += x;
    }
}

static inline void zero_cells(Cells *self, Py_ssize_t at, Py_ssize_t n) {
    if (n > 0) memset(self->data + at * self->itemsize, 0, (size_t)(n * self->itemsize));
}

/* value at index of the slice of width cells at at, the index checked. */
static int put(Cells *self, Py_ssize_t at, Py_ssize_t width, Py_ssize_t index, double value) {
    if (index < 0 || index >= width) {
        PyErr_Format(PyExc_IndexError, "index %zd outside a slice of %zd", index, width);
        return -1;
    }
    set_cell(self, at + index, value);
    return 0;
}

static int write_counts(Cells *self, Step *step, Py_ssize_t at, PyObject *entries) {
    PyObject *fast = PySequence_Fast(entries, "counts read a list of ints");
    if (fast == NULL) return -1;
    zero_cells(self, at, step->width);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t entry, index;
        if (as_index(PySequence_Fast_GET_ITEM(fast, i), &entry) < 0
            || channel(step, entry, &index) < 0) { Py_DECREF(fast); return -1; }
        if (index < 0 || index >= step->width) {
            PyErr_Format(PyExc_IndexError, "index %zd outside a slice of %zd", index, step->width);
            Py_DECREF(fast);
            return -1;
        }
        add_cell(self, at + index, 1.0);
    }
    Py_DECREF(fast);
    return 0;
}

static int write_vector(Cells *self, Step *step, Py_ssize_t at, PyObject *values) {
    PyObject *fast = PySequence_Fast(values, "vectors read a list of numbers");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > step->width) {
        PyErr_Format(PyExc_IndexError, "%zd numbers for a slice of %zd", n, step->width);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        double x;
        if (as_double(PySequence_Fast_GET_ITEM(fast, i), &x) < 0) { Py_DECREF(fast); return -1; }
        set_cell(self, at + i, x / step->scale);
    }
    zero_cells(self, at + n, step->width - n);
    Py_DECREF(fast);
    return 0;
}

static int write_one_hot(Cells *self, Step *step, PyObject *value) {
    zero_cells(self, step->at, step->width);
    if (value == Py_None) return 0;
    Py_ssize_t v, index;
    if (as_index(value, &v) < 0) return -1;
    if (v == step->empty) return 0;
    if (channel(step, v, &index) < 0) return -1;
    return put(self, step->at, step->width, index, 1.0);
}

/* The owners that changed place by place; all cleared first when the number of
   places changed or nothing was written yet. */
static int write_owners(Cells *self, Step *step, PyObject *places) {
    PyObject *fast = PySequence_Fast(places, "owners read a list of ints");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), stride = step->ats[0];
    PyObject *was = step->seen; /* a list of ints, or not yet written */
    int fresh = was == NULL || !PyList_CheckExact(was) || PyList_GET_SIZE(was) != n;
    if (fresh) zero_cells(self, step->at, step->width);
    if (n * stride > step->width) {
        PyErr_Format(PyExc_IndexError, "%zd places for a slice of %zd", n, step->width);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t place = 0; place < n; place++) {
        Py_ssize_t now, before = step->empty, index;
        /* The same object is the same owner (a place's small int most often is). */
        if (!fresh && PySequence_Fast_GET_ITEM(fast, place) == PyList_GET_ITEM(was, place))
            continue;
        if (as_index(PySequence_Fast_GET_ITEM(fast, place), &now) < 0) goto fail;
        if (!fresh && as_index(PyList_GET_ITEM(was, place), &before) < 0) goto fail;
        if (now == before) continue;
        Py_ssize_t base = step->at + place * stride;
        if (before != step->empty) {
            if (channel(step, before, &index) < 0) goto fail;
            set_cell(self, base + index, 0.0);
        }
        if (now != step->empty) {
            if (channel(step, now, &index) < 0 || put(self, base, stride, index, 1.0) < 0) goto fail;
        }
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    return -1;
}

/* The sum of a list of ints (-1 with an error set on failure). */
static Py_ssize_t sum_of(PyObject *row) {
    PyObject *fast = PySequence_Fast(row, "sums read lists of ints");
    if (fast == NULL) return -1;
    Py_ssize_t total = 0, n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t value;
        if (as_index(PySequence_Fast_GET_ITEM(fast, i), &value) < 0) { Py_DECREF(fast); return -1; }
        total += value;
    }
    Py_DECREF(fast);
    return total;
}

/* The slots of the rows that changed, each cleared and its rows added again in row
   order; every slot when the number of rows changed or nothing was written yet. */
static int write_table(Cells *self, Step *step, PyObject *rows) {
    PyObject *fast = PySequence_Fast(rows, "tables read a list of rows");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast), stride = step->ats[0];
    Py_ssize_t slots = stride > 0 ? step->width / stride : 0;
    PyObject *was = step->seen; /* a list of rows, or not yet written */
    int fresh = was == NULL || !PyList_CheckExact(was) || PyList_GET_SIZE(was) != n;
    Py_ssize_t *slot_of = PyMem_Calloc(n ? n : 1, sizeof(Py_ssize_t));
    char *dirty = PyMem_Calloc(slots ? slots : 1, 1);
    PyObject *row_fast = NULL;
    if (slot_of == NULL || dirty == NULL) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t row = 0; row < n; row++) {
        if (channel(step, row, &slot_of[row]) < 0) goto fail;
        Py_ssize_t length = PyObject_Length(PySequence_Fast_GET_ITEM(fast, row));
        if (length < 0) goto fail;
        if (slot_of[row] < 0 || slot_of[row] >= slots || length > stride) {
            PyErr_Format(PyExc_IndexError, "row %zd outside a table of %zd in slots of %zd",
                         row, step->width, stride);
            goto fail;
        }
        int same = 0;
        if (!fresh) {
            same = PyObject_RichCompareBool(PySequence_Fast_GET_ITEM(fast, row),
                                            PyList_GET_ITEM(was, row), Py_EQ);
            if (same < 0) goto fail;
        }
        if (!same) dirty[slot_of[row]] = 1;
    }
    if (fresh) zero_cells(self, step->at, step->width);
    for (Py_ssize_t slot = 0; slot < slots; slot++) {
        if (!dirty[slot]) continue;
        Py_ssize_t base = step->at + slot * stride;
        zero_cells(self, base, stride);
        for (Py_ssize_t row = 0; row < n; row++) {
            if (slot_of[row] != slot) continue;
            row_fast = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, row), "a table's rows are lists");
            if (row_fast == NULL) goto fail;
            Py_ssize_t width = PySequence_Fast_GET_SIZE(row_fast);
            for (Py_ssize_t column = 0; column < width; column++) {
                double x;
                if (as_double(PySequence_Fast_GET_ITEM(row_fast, column), &x) < 0) goto fail;
                if (x != 0.0) add_cell(self, base + column, x / step->scale);
            }
            Py_CLEAR(row_fast);
        }
    }
    PyMem_Free(slot_of);
    PyMem_Free(dirty);
    Py_DECREF(fast);
    return 0;
fail:
    Py_XDECREF(row_fast);
    PyMem_Free(slot_of);
    PyMem_Free(dirty);
    Py_DECREF(fast);
    return -1;
}

static int sync_rows(Cells *self, Step *step, PyObject *rows) {
    if (step->seen == NULL) {  /* (only after a failed forget: out of memory) */
        PyErr_SetString(PyExc_RuntimeError, "the engine lost its copies: make another");
        return -1;
    }
    PyObject *fast = PySequence_Fast(rows, "a per-seat step reads a list");
    if (fast == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n != step->nats) {
        PyErr_Format(PyExc_ValueError, "step %R: %zd rows for %zd seats", step->field, n, step->nats);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t seat = 0; seat < n; seat++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, seat), *value = row;
        Py_INCREF(value);
        if (step->kind == ROW_LENGTHS || step->kind == ROW_SUMS) {
            Py_ssize_t number = step->kind == ROW_LENGTHS ? PyObject_Length(row) : sum_of(row);
            Py_DECREF(value);
            if (number == -1 && PyErr_Occurred()) goto fail;
            value = PyLong_FromSsize_t(number);
            if (value == NULL) goto fail;
        }
        int same = PyObject_RichCompareBool(value, PyList_GET_ITEM(step->seen, seat), Py_EQ);
        if (same != 0) {
            Py_DECREF(value);
            if (same < 0) goto fail;
            continue;
        }
        Py_ssize_t at = step->ats[seat];
        int done;
        if (step->kind == ROW_NUMBERS || step->kind == ROW_LENGTHS || step->kind == ROW_SUMS) {
            double x;
            done = as_double(value, &x);
            if (done == 0) set_cell(self, at, x / step->scale);
        } else if (step->kind == ROW_COUNTS) {
            done = write_counts(self, step, at, value);
        } else {
            done = write_vector(self, step, at, value);
        }
        PyObject *copy = done < 0 ? NULL : snapshot(value);
        Py_DECREF(value);
        if (copy == NULL) goto fail;
        PyList_SetItem(step->seen, seat, copy); /* steals copy, drops the old */
    }
    Py_DECREF(fast);
    return 0;
fail:
    Py_DECREF(fast);
    return -1;
}

/* The instance dict of state when its attributes are looked up the generic way
   (a new reference), else NULL with no error set. */
static PyObject *instance_dict(PyObject *state) {
    PyTypeObject *type = Py_TYPE(state);
    int has_dict = type->tp_dictoffset != 0;
#ifdef Py_TPFLAGS_MANAGED_DICT
    has_dict = has_dict || (type->tp_flags & Py_TPFLAGS_MANAGED_DICT);
#endif
    if (!has_dict || type->tp_getattro != PyObject_GenericGetAttr) return NULL;
    PyObject *dict = PyObject_GenericGetDict(state, NULL);
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        PyErr_Clear();
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

/* Where key's entry is in dict, as PyDict_Next counts (-1: not there as this very
   object). */
static Py_ssize_t entry_of(PyObject *dict, PyObject *key) {
    Py_ssize_t next = 0;
    PyObject *found, *value;
    while (PyDict_Next(dict, &next, &found, &value))
        if (found == key) return next - 1;
    return -1;
}

/* state.<field>, as PyObject_GetAttr reads it. Generic attribute lookup reads the
   instance dict unless the type has a data descriptor of that name (a property, a
   slot); whether it has is checked once per type and version tag, so a plan's
   fields cost a dict entry each (at the step's hint) rather than an attribute
   lookup. */
static PyObject *read_field(Step *step, PyObject *state, PyObject *dict) {
    if (dict != NULL) {
        PyTypeObject *type = Py_TYPE(state);
        if (step->checked != type || step->checked_tag != type->tp_version_tag
            || !(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) {
            PyObject *attribute = _PyType_Lookup(type, step->field); /* borrowed */
            step->in_dict = attribute == NULL || Py_TYPE(attribute)->tp_descr_set == NULL;
            step->checked = type;
            step->checked_tag = type->tp_version_tag;
        }
        if (step->in_dict) {
            PyObject *key, *value;
            Py_ssize_t at = step->hint;
            if (at >= 0 && PyDict_Next(dict, &at, &key, &value) && key == step->field) {
                Py_INCREF(value);
                return value;
            }
            value = PyDict_GetItemWithError(dict, step->field);
            if (value != NULL) {
                step->hint = entry_of(dict, step->field);
                Py_INCREF(value);
                return value;
            }
            if (PyErr_Occurred()) return NULL;
        }
    }
    return PyObject_GetAttr(state, step->field);
}

static PyObject *cells_sync(Cells *self, PyObject *state) {
    PyObject *changed = PyList_New(0);
    if (changed == NULL) return NULL;
    PyObject *dict = instance_dict(state);
    for (Py_ssize_t i = 0; i < self->nsteps; i++) {
        Step *step = &self->steps[i];
        PyObject *value = read_field(step, state, dict);
        if (value == NULL) goto fail;
        if (step->row >= 0) {
            PyObject *entry = PySequence_GetItem(value, step->row);
            Py_DECREF(value);
            if (entry == NULL) goto fail;
            value = entry;
        }
        if (is_rows(step->kind)) {
            int done = sync_rows(self, step, value);
            Py_DECREF(value);
            if (done < 0) goto fail;
            continue;
        }
        if (step->kind == LENGTH) {
            Py_ssize_t len = PyObject_Length(value);
            Py_DECREF(value);
            if (len < 0) goto fail;
            value = PyLong_FromSsize_t(len);
            if (value == NULL) goto fail;
        }
        if (step->seen != NULL) {
            int same = PyObject_RichCompareBool(value, step->seen, Py_EQ);
            if (same != 0) {
                Py_DECREF(value);
                if (same < 0) goto fail;
                continue;
            }
        }
        int done = 0;
        switch (step->kind) {
        case CUSTOM: {
            PyObject *position = PyLong_FromSsize_t(i);
            done = position == NULL ? -1 : PyList_Append(changed, position);
            Py_XDECREF(position);
            break;
        }
        case NUMBER:
        case LENGTH: {
            double x;
            done = as_double(value, &x);
            if (done == 0) set_cell(self, step->at, x / step->scale);
            break;
        }
        case COUNTS: done = write_counts(self, step, step->at, value); break;
        case VECTOR: done = write_vector(self, step, step->at, value); break;
        case ONE_HOT: done = write_one_hot(self, step, value); break;
        case OWNERS: done = write_owners(self, step, value); break;
        case TABLE: done = write_table(self, step, value); break;
        }
        PyObject *copy = done < 0 ? NULL : snapshot(value);
        Py_DECREF(value);
        if (copy == NULL) goto fail;
        Py_XSETREF(step->seen, copy);
    }
    Py_XDECREF(dict);
    return changed;
fail:
    Py_XDECREF(dict);
    Py_DECREF(changed);
    return NULL;
}

static PyObject *cells_forget(Cells *self, PyObject *unused) {
    clear_seen(self);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef cells_methods[] = {
    {"sync", (PyCFunction)cells_sync, METH_O,
     "Write the steps whose field changed; return the positions of the changed custom steps."},
    {"forget", (PyCFunction)cells_forget, METH_NOARGS,
     "Forget every copy: the next sync writes every step."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CellsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "senet.rl._native.cells.Cells",
    .tp_doc = "A tensor kept in step with a state's fields by a plan (see senet.rl.cells).",
    .tp_basicsize = sizeof(Cells),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)cells_init,
    .tp_dealloc = (destructor)cells_dealloc,
    .tp_methods = cells_methods,
};

static struct PyModuleDef cells_module = {
    PyModuleDef_HEAD_INIT, "cells", "senet.rl.cells in C (see cells.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit_cells(void) {
    if (PyType_Ready(&CellsType) < 0) return NULL;
    PyObject *module = PyModule_Create(&cells_module);
    if (module == NULL) return NULL;
    Unseen = PyObject_CallNoArgs((PyObject *)&PyBaseObject_Type);
    if (Unseen == NULL) return NULL;
    Py_INCREF(&CellsType);
    if (PyModule_AddObject(module, "Cells", (PyObject *)&CellsType) < 0
        || PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
