// MediaPipe Selfie Segmentation for the app page that frames this one: it posts { id, image }
// (an ImageBitmap) and gets back { id, mask } (a PNG Blob of the image's size: white, its alpha
// the person) or { id, error }. Messages from anywhere but the parent page of this origin are ignored.
(() => {
  let mask = null;
  let seg = null;
  let ready = null;
  // Where the model cannot start, the frame still answers: each request gets the reason.
  try {
    seg = new SelfieSegmentation({ locateFile: (file) => file });
    seg.setOptions({ modelSelection: 0 });
    seg.onResults((r) => {
      mask = r.segmentationMask;
    });
    ready = seg.initialize();
  } catch (err) {
    ready = Promise.reject(err);
  }
  ready.catch((err) => console.warn('Selfie Segmentation did not start:', err));
  addEventListener('message', async (e) => {
    if (e.origin !== location.origin || e.source !== parent) return;
    const { id, image } = e.data || {};
    try {
      await ready;
      const { width, height } = image;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(image, 0, 0);
      mask = null;
      await seg.send({ image: canvas });
      if (!mask) throw new Error('the segmentation gave no mask');
      ctx.clearRect(0, 0, width, height);
      ctx.drawImage(mask, 0, 0, width, height);
      // The model's confidence is in the red channel: it becomes the alpha of a white image.
      const d = ctx.getImageData(0, 0, width, height);
      let person = 0;
      for (let i = 0; i < d.data.length; i += 4) {
        const a = d.data[i];
        if (a >= 128) person++;
        d.data[i] = d.data[i + 1] = d.data[i + 2] = 255;
        d.data[i + 3] = a;
      }
      if (person < (width * height) / 50) throw new Error('no person was found to cut out');
      ctx.putImageData(d, 0, 0);
      const blob = await new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error('the mask could not be encoded'))), 'image/png'));
      parent.postMessage({ id, mask: blob }, location.origin);
    } catch (err) {
      parent.postMessage({ id, error: String((err && err.message) || err) }, location.origin);
    }
  });
  parent.postMessage({ ready: true }, location.origin);
})();
