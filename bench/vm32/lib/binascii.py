# binascii for micropython32 (the chip's is C; imported before the bench counts the heap)


def hexlify(data):
    return "".join("%02x" % b for b in data).encode()


def unhexlify(text):
    if isinstance(text, str):
        text = text.encode()
    return bytes(int(text[i:i + 2], 16) for i in range(0, len(text), 2))
