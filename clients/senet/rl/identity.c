/*
 * senet.rl.identity in C: the same as identity.py (its reference, which documents
 * it), built by senet.rl.native into the twin senet.rl._native.identity.
 *
 * ActionIds is an open-addressing table of object addresses and their indexes. It
 * holds a reference to every object it maps, so an address stays that object's for
 * as long as it is mapped.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

typedef struct {
    PyObject *key; /* NULL: a free slot */
    Py_ssize_t index;
} Slot;

typedef struct {
    PyObject_HEAD
    Slot *slots;
    Py_ssize_t capacity; /* a power of two */
    Py_ssize_t used;
} ActionIds;

static size_t slot_of(PyObject *key, Py_ssize_t capacity) {
    size_t h = (size_t)(uintptr_t)key >> 4;
    h *= (size_t)0x9E3779B97F4A7C15ULL;
    return (h >> 7) & (size_t)(capacity - 1);
}

static Slot *probe(Slot *slots, Py_ssize_t capacity, PyObject *key) {
    size_t i = slot_of(key, capacity);
    while (slots[i].key != NULL && slots[i].key != key) i = (i + 1) & (size_t)(capacity - 1);
    return &slots[i];
}

static int grow(ActionIds *self) {
    Py_ssize_t capacity = self->capacity ? self->capacity * 2 : 64;
    Slot *slots = PyMem_Calloc((size_t)capacity, sizeof(Slot));
    if (slots == NULL) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < self->capacity; i++) {
        if (self->slots[i].key != NULL) *probe(slots, capacity, self->slots[i].key) = self->slots[i];
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->capacity = capacity;
    return 0;
}

static void release(ActionIds *self) {
    for (Py_ssize_t i = 0; i < self->capacity; i++) Py_CLEAR(self->slots[i].key);
    PyMem_Free(self->slots);
    self->slots = NULL;
    self->capacity = self->used = 0;
}

static void ids_dealloc(ActionIds *self) {
    release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Py_ssize_t ids_len(ActionIds *self) { return self->used; }

static PyObject *ids_find(ActionIds *self, PyObject *actions) {
    PyObject *fast = PySequence_Fast(actions, "find takes a list of actions");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *found = PyList_New(n);
    if (found == NULL) { Py_DECREF(fast); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PySequence_Fast_GET_ITEM(fast, i), *value = Py_None;
        if (self->capacity) {
            Slot *slot = probe(self->slots, self->capacity, key);
            if (slot->key != NULL) {
                value = PyLong_FromSsize_t(slot->index);
                if (value == NULL) { Py_DECREF(found); Py_DECREF(fast); return NULL; }
                PyList_SET_ITEM(found, i, value);
                continue;
            }
        }
        Py_INCREF(value);
        PyList_SET_ITEM(found, i, value);
    }
    Py_DECREF(fast);
    return found;
}

static PyObject *ids_add(ActionIds *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "add(action, index)");
        return NULL;
    }
    Py_ssize_t index = PyLong_AsSsize_t(args[1]);
    if (index == -1 && PyErr_Occurred()) return NULL;
    if (2 * (self->used + 1) > self->capacity && grow(self) < 0) return NULL;
    Slot *slot = probe(self->slots, self->capacity, args[0]);
    if (slot->key == NULL) {
        Py_INCREF(args[0]);
        slot->key = args[0];
        self->used++;
    }
    slot->index = index;
    Py_RETURN_NONE;
}

static PyObject *ids_clear(ActionIds *self, PyObject *unused) {
    release(self);
    Py_RETURN_NONE;
}

static PyObject *mask(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask(size, indexes)");
        return NULL;
    }
    Py_ssize_t size = PyLong_AsSsize_t(args[0]);
    if (size == -1 && PyErr_Occurred()) return NULL;
    PyObject *fast = PySequence_Fast(args[1], "mask takes a list of indexes");
    if (fast == NULL) return NULL;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out == NULL) { Py_DECREF(fast); return NULL; }
    char *bytes = PyByteArray_AS_STRING(out);
    memset(bytes, 0, (size_t)size);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t at = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fast, i));
        if (at == -1 && PyErr_Occurred()) goto fail;
        if (at < 0 || at >= size) {
            PyErr_Format(PyExc_IndexError, "index %zd outside a mask of %zd", at, size);
            goto fail;
        }
        bytes[at] = 1;
    }
    Py_DECREF(fast);
    return out;
fail:
    Py_DECREF(fast);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef ids_methods[] = {
    {"find", (PyCFunction)ids_find, METH_O, "Each action's index, None for an object not mapped."},
    {"add", (PyCFunction)(void (*)(void))ids_add, METH_FASTCALL,
     "Map this very object to an index, and keep it alive."},
    {"clear", (PyCFunction)ids_clear, METH_NOARGS, "Forget every object (and let them go)."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods ids_sequence = {.sq_length = (lenfunc)ids_len};

static PyTypeObject ActionIdsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "senet.rl._native.identity.ActionIds",
    .tp_doc = "Indexes of action objects, by identity (see senet.rl.identity).",
    .tp_basicsize = sizeof(ActionIds),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)ids_dealloc,
    .tp_methods = ids_methods,
    .tp_as_sequence = &ids_sequence,
};

static PyMethodDef module_methods[] = {
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL,
     "size bytes: 1 at each of indexes, 0 elsewhere."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef identity_module = {
    PyModuleDef_HEAD_INIT, "identity", "senet.rl.identity in C (see identity.py).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit_identity(void) {
    if (PyType_Ready(&ActionIdsType) < 0) return NULL;
    PyObject *module = PyModule_Create(&identity_module);
    if (module == NULL) return NULL;
    Py_INCREF(&ActionIdsType);
    if (PyModule_AddObject(module, "ActionIds", (PyObject *)&ActionIdsType) < 0
        || PyModule_AddStringConstant(module, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
